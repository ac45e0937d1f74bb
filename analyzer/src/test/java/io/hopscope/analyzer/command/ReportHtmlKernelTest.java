package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KernelFixture;
import io.hopscope.analyzer.testing.KernelRecordingTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code report --format html --bpf}: the kernel view in the page's data, escaped, and the offwake flame graph. */
class ReportHtmlKernelTest extends KernelRecordingTest {

    /** A waker the recording does not know, so it is named by its kernel name: from the eBPF file, untrusted. */
    static final String HOSTILE_WAKER = "<img src=x onerror=alert(3)>";

    /** What {@link #write} makes of the fixture's events: what the pages here are made from. */
    static Path hostileEvents;

    @BeforeAll
    static void writeHostileEvents() throws Exception {
        hostileEvents = write(fixture, dir.resolve("kj-hostile.jsonl"));
    }

    /** The fixture's events with the interrupt's bystander renamed to {@link #HOSTILE_WAKER}. */
    static Path write(KernelFixture fixture, Path file) throws Exception {
        List<String> lines = fixture.events().stream().map(l -> l.replace("swapper/0", HOSTILE_WAKER)).toList();
        Files.write(file, lines);
        return file;
    }

    static String page(Path html) {
        return page(html, hostileEvents);
    }

    static String page(Path html, Path bpf) {
        Cli r = Cli.run("report", jfr.toString(), "--format", "html", "--bpf", bpf.toString(), "-o", html.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        try {
            return Files.readString(html);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static JsonNode data(String page) throws Exception {
        String mark = "<script type=\"application/json\" id=\"hopscope-data\">";
        int start = page.indexOf(mark) + mark.length();
        return new ObjectMapper().readTree(page.substring(start, page.indexOf("</script>", start)));
    }

    @Test
    void aRequestOverlappingLostRecordsIsMarkedOnThePage() throws Exception {
        Path lossy = dir.resolve("lossy.jsonl");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(hostileEvents));
        long from = fixture.waitStart + 40 * KernelFixture.MS;
        lines.add("{\"lost\":{\"records\":128,\"from_ns\":" + from + ",\"to_ns\":" + (from + KernelFixture.MS) + "}}");
        Files.write(lossy, lines);
        String page = page(dir.resolve("lossy.html"), lossy);
        JsonNode data = data(page);
        assertThat(data.get("kernel").get("notes").get(0).asText())
                .contains("1 request(s) overlap lost eBPF records: their off-CPU figures are incomplete");
        assertThat(data.get("kernel").get("names").get(0).get("count").asText()).isEqualTo("2/1");
        for (JsonNode r : data.get("requests")) {
            JsonNode k = r.get("kernel");
            boolean one = r.get("id").asLong() == 1;
            assertThat(k.get("incomplete").asBoolean()).as("request %s", r.get("id")).isEqualTo(one);
            assertThat(k.get("text").asText()).startsWith(one ? "kernel (INCOMPLETE: overlaps lost eBPF records; "
                    + "lower bounds): off-CPU >= 25.00 ms" : "kernel: off-CPU 4.00 ms");
        }
        // The page shows it as a warning.
        assertThat(page).contains("r.kernel.incomplete ? 'kernel warn' : 'kernel'");
    }

    @Test
    void pageCarriesThePerNameTableAndEachRequestsKernelView() throws Exception {
        JsonNode data = data(page(dir.resolve("a.html")));
        JsonNode kernel = data.get("kernel");
        assertThat(kernel.get("text").asText()).endsWith("6 off-CPU interval(s), 4 in requests");
        assertThat(kernel.get("names")).hasSize(1);
        JsonNode name = kernel.get("names").get(0);
        assertThat(name.get("name").asText()).isEqualTo(KernelFixture.NAME);
        assertThat(name.get("offCpu").asText()).isEqualTo("14.50 ms");
        assertThat(name.get("switches").asText()).isEqualTo("2.0");
        assertThat(name.get("futex").asText()).isEqualTo("0.5");
        assertThat(name.get("wakers").asText()).contains("kj-loop -> kj-caller in Mono.block (1)");
        JsonNode r1 = null;
        for (JsonNode r : data.get("requests")) {
            if (r.get("id").asLong() == 1) {
                r1 = r;
            }
        }
        assertThat(r1).isNotNull();
        assertThat(r1.get("kernel").get("text").asText())
                .isEqualTo("kernel: off-CPU 25.00 ms, run queue 5.50 ms, 3 context switch(es), 1 futex wait(s)");
        assertThat(r1.get("kernel").get("during").get(0).asText()).startsWith("in Mono.block: off-CPU 22.00 ms");
        JsonNode wakers = r1.get("kernel").get("wakers");
        assertThat(wakers).hasSize(2);
        assertThat(wakers.findValuesAsText("waker")).containsExactlyInAnyOrder("kj-loop", HOSTILE_WAKER + " [hardirq]");
        assertThat(wakers.get(0).get("stack").asText()).isEqualTo("Waker.wake <- Loop.run");
        assertThat(data.get("flames").findValuesAsText("title")).contains("hopscope offwake (ns)");
    }

    @Test
    void eBpfNamesNeverReachThePageAsMarkup() {
        String page = page(dir.resolve("b.html"));
        assertThat(page).doesNotContain(HOSTILE_WAKER).contains("Kernel (eBPF)");
    }

    @Test
    void foldedInputGivesThreadNamePairsAndTheNoteOnly() throws Exception {
        Path folded = Files.write(dir.resolve("kj.folded"), List.of("kj-caller;schedule;--;try_to_wake_up;kj-loop 1500"));
        Path html = dir.resolve("d.html");
        Cli r = Cli.run("report", jfr.toString(), "--format", "html", "--bpf", folded.toString(), "-o", html.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode data = data(Files.readString(html));
        JsonNode kernel = data.get("kernel");
        assertThat(kernel.get("perRequest").asBoolean()).isFalse();
        assertThat(kernel.get("notes").get(0).asText()).contains("no per-request figures");
        assertThat(kernel.get("names")).isEmpty();
        assertThat(kernel.get("pairs").get(0).get("wakee").asText()).isEqualTo("kj-caller");
        assertThat(kernel.get("pairs").get(0).get("offCpu").asText()).isEqualTo("1.50 ms");
        assertThat(data.get("requests").get(0).has("kernel")).isFalse();
    }

    @Test
    void withoutBpfThereIsNoKernelData() throws Exception {
        Path html = dir.resolve("c.html");
        Cli r = Cli.run("report", jfr.toString(), "--format", "html", "-o", html.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode data = data(Files.readString(html));
        assertThat(data.has("kernel")).isFalse();
        assertThat(data.get("requests").get(0).has("kernel")).isFalse();
        assertThat(data.get("flames").findValuesAsText("title")).doesNotContain("hopscope offwake (ns)");
    }
}
