package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KnownPathFile;
import io.hopscope.analyzer.testing.TraceSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code hopscope trace} on a real known-path recording, read back through the trace format's schema check. */
class TraceCliTest {

    @RegisterExtension
    static final KnownPathFile recording = new KnownPathFile(2);

    @TempDir
    static Path dir;

    @Test
    void traceWithoutRecordingPrintsUsage() {
        Cli r = Cli.run("trace");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required parameter").contains("Usage: hopscope trace");
    }

    @Test
    void missingBpfFileIsOneLine() {
        Cli r = Cli.run("trace", recording.file().toString(), "--bpf", dir.resolve("x.csv").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines().count()).isEqualTo(1);
        assertThat(r.err()).startsWith("hopscope: ").contains("x.csv: no such file");
    }

    @Test
    void missingRecordingIsOneLine() {
        Cli r = Cli.run("trace", dir.resolve("nope.jfr").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines().count()).isEqualTo(1);
        assertThat(r.err()).startsWith("hopscope: ").contains("nope.jfr");
    }

    @Test
    void knownPathDrawsThreeArrowsPerRequestBetweenItsThreads() throws Exception {
        Path out = dir.resolve("trace.json");
        Cli r = Cli.run("trace", recording.file().toString(), "-o", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode trace = new ObjectMapper().readTree(Files.readString(out));
        List<String> problems = TraceSchema.check(trace);
        assertThat(problems).isEmpty();

        Map<Long, String> threadNames = new HashMap<>();
        Map<Long, JsonNode> starts = new HashMap<>();
        List<JsonNode> finishes = new ArrayList<>();
        int segments = 0;
        int spans = 0;
        int waits = 0;
        for (JsonNode e : trace.get("traceEvents")) {
            switch (e.get("ph").asText()) {
                case "M" -> {
                    if (e.get("name").asText().equals("thread_name")) {
                        threadNames.put(e.get("tid").asLong(), e.get("args").get("name").asText());
                    }
                }
                case "s" -> starts.put(e.get("id").asLong(), e);
                case "f" -> finishes.add(e);
                case "X" -> {
                    switch (e.get("cat").asText()) {
                        case "segment" -> segments++;
                        case "policy" -> spans++;
                        case "wait" -> waits++;
                        default -> {
                        }
                    }
                }
                default -> {
                }
            }
        }
        // 2 requests x (caller start, A, B, caller resume), 2 x 2 policy spans, 2 x 1 wait, 2 x 3 hops.
        assertThat(segments).isEqualTo(8);
        assertThat(spans).isEqualTo(4);
        assertThat(waits).isEqualTo(2);
        List<String> arrows = new ArrayList<>();
        for (JsonNode f : finishes) {
            JsonNode s = starts.get(f.get("id").asLong());
            arrows.add(threadNames.get(s.get("tid").asLong()) + " -> " + threadNames.get(f.get("tid").asLong()));
            assertThat(f.get("ts").asDouble()).isGreaterThanOrEqualTo(s.get("ts").asDouble());
        }
        assertThat(arrows).containsExactlyInAnyOrder(
                "known-path-caller -> known-path-A", "known-path-A -> known-path-B", "known-path-B -> known-path-caller",
                "known-path-caller -> known-path-A", "known-path-A -> known-path-B", "known-path-B -> known-path-caller");
    }
}
