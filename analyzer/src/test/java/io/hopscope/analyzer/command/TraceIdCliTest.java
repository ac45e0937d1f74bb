package io.hopscope.analyzer.command;

import static io.hopscope.analyzer.testing.TracedRequests.SPAN_1;
import static io.hopscope.analyzer.testing.TracedRequests.SPAN_2;
import static io.hopscope.analyzer.testing.TracedRequests.TRACE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.ContractEvents;
import io.hopscope.analyzer.testing.TracedRequests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests by the W3C trace they were made in: {@code report --trace-id}, the ids in the text, JSON and
 * trace outputs, and the HTML report's links ({@code --trace-url}). Misuse first. The recording: two
 * requests of one trace (two spans), one whose ids are malformed (upper case: not what the agent
 * writes, so no id), one made in no trace.
 */
class TraceIdCliTest {

    @TempDir
    static Path dir;
    static Path recording;

    @BeforeAll
    static void record() throws Exception {
        recording = dir.resolve("traced.jfr");
        try (Recording r = new Recording()) {
            r.enable(ContractEvents.Request.class).withoutThreshold();
            r.enable(ContractEvents.Segment.class).withoutThreshold();
            r.start();
            TracedRequests.request(1, TRACE, SPAN_1, 1024, () -> { });
            TracedRequests.request(2, TRACE, SPAN_2, 1024, () -> { });
            TracedRequests.request(3, TRACE.toUpperCase(), SPAN_1, 1024, () -> { });
            TracedRequests.request(4, null, null, 1024, () -> { });
            r.stop();
            r.dump(recording);
        }
    }

    // --- misuse: one line naming the option, usage, exit 2

    @Test
    void aMalformedTraceIdIsOneLineAndExit2() {
        for (String bad : List.of("4bf92f35", "4bf92f3577b34da6a3ce929d0e0e473g", "00000000000000000000000000000000")) {
            Cli r = Cli.run("report", recording.toString(), "--trace-id", bad);
            assertThat(r.exitCode()).as(bad).isEqualTo(2);
            assertThat(r.err().lines().findFirst().orElse("")).as(bad)
                    .isEqualTo("Invalid value for option '--trace-id': expected a W3C trace id (32 hex digits, not all 0),"
                            + " got '" + bad + "'");
            assertThat(r.out()).isEmpty();
        }
    }

    @Test
    void aBadTraceUrlTemplateIsOneLineAndExit2() {
        assertThat(firstErrorLine("https://tempo.example/trace/")).contains("expected a URL with {traceId} or {spanId} in it");
        assertThat(firstErrorLine("https://tempo.example/trace/{trace}"))
                .contains("unknown placeholder {trace} in 'https://tempo.example/trace/{trace}': only {traceId} and {spanId}");
        assertThat(firstErrorLine("javascript:alert(1)//{traceId}")).contains("expected an http or https URL with a host");
        assertThat(firstErrorLine("/trace/{traceId}")).contains("expected an http or https URL with a host");
        assertThat(firstErrorLine("https://tempo example/{traceId}")).contains("not a URL once the ids are in");
    }

    private static String firstErrorLine(String template) {
        Cli r = Cli.run("report", recording.toString(), "--format", "html", "--trace-url", template);
        assertThat(r.exitCode()).as(template).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        String first = r.err().lines().findFirst().orElse("");
        assertThat(first).startsWith("Invalid value for option '--trace-url': ");
        return first;
    }

    @Test
    void traceUrlIsForHtml() {
        Cli r = Cli.run("report", recording.toString(), "--trace-url", "https://tempo.example/trace/{traceId}");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("--trace-url is for --format html (its links)");
    }

    // --- the outputs

    @Test
    void textShowsEachRequestsIdsAndOnlyWellFormedOnes() {
        Cli r = Cli.run("report", recording.toString(), "--top", "all", "--sort", "start");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("  trace " + TRACE + " span " + SPAN_1 + "\n")
                .contains("  trace " + TRACE + " span " + SPAN_2 + "\n");
        assertThat(r.out().lines().filter(l -> l.startsWith("  trace ")).count()).isEqualTo(2);
    }

    @Test
    void jsonHasTraceIdAndSpanIdOnEveryRequest() throws Exception {
        List<JsonNode> requests = jsonRequests();
        assertThat(requests).extracting(n -> n.get("id").asLong()).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
        for (JsonNode n : requests) {
            long id = n.get("id").asLong();
            assertThat(n.get("traceId").isNull()).as("request %d", id).isEqualTo(id > 2);
            assertThat(n.get("spanId").asText(null)).as("request %d", id).isEqualTo(id == 1 ? SPAN_1 : id == 2 ? SPAN_2 : null);
        }
    }

    @Test
    void traceIdSelectsTheRequestsOfThatTraceInEitherCase() throws Exception {
        assertThat(jsonRequests("--trace-id", TRACE)).extracting(n -> n.get("id").asLong()).containsExactlyInAnyOrder(1L, 2L);
        assertThat(jsonRequests("--trace-id", TRACE.toUpperCase())).hasSize(2);
        Cli json = Cli.run("report", recording.toString(), "--format", "json", "--trace-id", TRACE);
        assertThat(new ObjectMapper().readTree(json.out()).get("summary").get(0).get("count").asLong()).isEqualTo(2);
        assertThat(jsonRequests("--trace-id", "0af7651916cd43dd8448eb211c80319c")).isEmpty();
    }

    @Test
    void htmlLinksEachTraceIdWithTheTemplate() throws Exception {
        Path html = dir.resolve("traced.html");
        Cli r = Cli.run("report", recording.toString(), "--format", "html", "-o", html.toString(),
                "--trace-url", "https://tempo.example/trace/{traceId}?span={spanId}");
        assertThat(r.exitCode()).as(r.err()).isZero();
        String page = Files.readString(html);
        assertThat(page).contains("\"traceUrl\":\"https://tempo.example/trace/" + TRACE + "?span=" + SPAN_1 + "\"")
                .contains("\"traceUrl\":\"https://tempo.example/trace/" + TRACE + "?span=" + SPAN_2 + "\"")
                .contains("\"traceUrl\":null");
    }

    @Test
    void theTraceHasTheIdsOnTheRequestsSlices() throws Exception {
        Path trace = dir.resolve("traced.json");
        Cli r = Cli.run("trace", recording.toString(), "--top", "all", "-o", trace.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> spans = new ArrayList<>();
        for (JsonNode e : new ObjectMapper().readTree(trace.toFile()).get("traceEvents")) {
            if (e.path("args").has("traceId")) {
                assertThat(e.get("args").get("traceId").asText()).isEqualTo(TRACE);
                spans.add(e.get("args").get("request").asLong() + "/" + e.get("args").get("spanId").asText());
            }
        }
        assertThat(spans).contains("1/" + SPAN_1, "2/" + SPAN_2).allMatch(s -> s.startsWith("1/") || s.startsWith("2/"));
    }

    private static List<JsonNode> jsonRequests(String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("report", recording.toString(), "--format", "json", "--top", "all"));
        args.addAll(List.of(options));
        Cli json = Cli.run(args.toArray(String[]::new));
        assertThat(json.exitCode()).as(json.err()).isZero();
        List<JsonNode> requests = new ArrayList<>();
        new ObjectMapper().readTree(json.out()).get("requests").forEach(requests::add);
        return requests;
    }
}
