package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.SpacedRecording;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which requests {@code report --format json} and {@code trace} keep ({@code --top}, {@code --sample}),
 * over 600 back-to-back requests on one thread, so that ids 1 to 600 are also their start order and
 * the worst by {@code --sort start} are the first ids: every count below follows from that alone.
 */
class KeptCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static String file;

    @BeforeAll
    static void record() throws Exception {
        Path recording = dir.resolve("many.jfr");
        SpacedRecording.write(recording, 600, 0);
        file = recording.toString();
    }

    private static void usage(Cli r, String message) {
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith(message).contains("Usage: hopscope ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void misuseSaysWhatTopAndSampleTake() {
        usage(Cli.run("report", file, "--top", "most"), "--top takes a number or all, got 'most'");
        usage(Cli.run("trace", file, "--top", "-3"), "--top must be >= 0, got -3");
        usage(Cli.run("report", file, "--sample", "-1"), "--sample must be >= 0, got -1");
        usage(Cli.run("trace", file, "--top", "all", "--sample", "5"), "--sample goes with --top N of 1 or more");
        usage(Cli.run("report", file, "--format", "html", "--sample", "5"), "--sample is for text and json");
    }

    @Test
    void jsonKeepsTheWorstHundredAndEverySecondOfTheRestByDefault() throws Exception {
        Cli r = Cli.run("report", file, "--format", "json", "--sort", "start");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode report = JSON.readTree(r.out());
        // Ids 101..600 are 500, more than 400; every 2nd of them is 250.
        List<Long> expected = new ArrayList<>(LongStream.rangeClosed(1, 100).boxed().toList());
        LongStream.rangeClosed(101, 600).filter(id -> id % 2 == 0).forEach(expected::add);
        assertThat(ids(report)).containsExactlyElementsOf(expected);
        assertThat(report.get("summary").get(0).get("count").asLong()).isEqualTo(1); // one name per request
        assertThat(report.get("summary")).hasSize(600);
        assertKept(report.get("requestsKept"), false, 100, 2, 250, 250);
    }

    @Test
    void sampleTakesThePowerOfTwoThatFits() throws Exception {
        Cli r = Cli.run("report", file, "--format", "json", "--sort", "start", "--top", "10", "--sample", "20");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode report = JSON.readTree(r.out());
        // Ids 11..600: multiples of 32 are 18 (32..576), of 16 are 37: 32 is the smallest that fits 20.
        List<Long> expected = new ArrayList<>(LongStream.rangeClosed(1, 10).boxed().toList());
        LongStream.rangeClosed(11, 600).filter(id -> id % 32 == 0).forEach(expected::add);
        assertThat(ids(report)).containsExactlyElementsOf(expected);
        assertKept(report.get("requestsKept"), false, 10, 32, 18, 572);
    }

    @Test
    void topAllKeepsEveryRequest() throws Exception {
        Cli r = Cli.run("report", file, "--format", "json", "--top", "all");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode report = JSON.readTree(r.out());
        assertThat(report.get("requests")).hasSize(600);
        assertThat(report.get("requestsKept").get("all").asBoolean()).isTrue();
        assertThat(report.get("requestsKept").get("leftOut").asLong()).isZero();
    }

    @Test
    void textSampleIsItsOwnList() {
        Cli r = Cli.run("report", file, "--sort", "start", "--top", "2", "--sample", "2");
        assertThat(r.exitCode()).as(r.err()).isZero();
        // Ids 3..600: multiples of 256 are 256 and 512.
        assertThat(r.out()).contains("worst 2 request(s) by start:").contains("a sample of the rest, every 256th request by id (2):")
                .contains("request 256  req-256").contains("request 512  req-512").doesNotContain("request 128 ");
    }

    @Test
    void traceDrawsTheBoundedSetAndSaysHowManyItLeftOut() throws Exception {
        Cli r = Cli.run("trace", file, "--top", "10", "--sample", "20", "-o", "-");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode trace = JSON.readTree(r.out());
        Set<String> drawn = new LinkedHashSet<>();
        trace.get("traceEvents").forEach(e -> {
            if ("segment".equals(e.path("cat").asText())) {
                drawn.add(e.get("name").asText());
            }
        });
        // The worst 10 by duration are whichever they are; the sample is every 32nd id of the others.
        assertThat(drawn.size()).isBetween(10 + 18 - 10, 10 + 18);
        long sampled = drawn.stream().mapToLong(n -> Long.parseLong(n.substring(n.indexOf('#') + 1)))
                .filter(id -> id % 32 == 0).count();
        String line = "requests: kept " + drawn.size() + " of 600, the worst 10 by duration and every 32nd of the rest by id";
        assertThat(r.err()).contains("note: " + line).contains("; left out " + (600 - drawn.size())
                + "; --top all draws every one");
        assertThat(trace.get("otherData").get("requests").asText()).startsWith(line);
        assertThat(sampled).isGreaterThanOrEqualTo(drawn.size() - 10);
    }

    @Test
    void traceTopAllDrawsEveryRequestAndSaysNothingLeftOut() throws Exception {
        Cli r = Cli.run("trace", file, "--top", "all", "-o", "-");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).doesNotContain("left out");
        JsonNode trace = JSON.readTree(r.out());
        assertThat(trace.get("otherData").get("requests").asText()).isEqualTo("requests: kept every one");
    }

    private static void assertKept(JsonNode kept, boolean all, int worst, long every, int sampled, long leftOut) {
        assertThat(kept.get("all").asBoolean()).isEqualTo(all);
        assertThat(kept.get("worst").asInt()).isEqualTo(worst);
        assertThat(kept.get("sampleEvery").asLong()).isEqualTo(every);
        assertThat(kept.get("sampled").asInt()).isEqualTo(sampled);
        assertThat(kept.get("leftOut").asLong()).isEqualTo(leftOut);
    }

    private static List<Long> ids(JsonNode report) {
        List<Long> ids = new ArrayList<>();
        report.get("requests").forEach(r -> ids.add(r.get("id").asLong()));
        return ids;
    }
}
