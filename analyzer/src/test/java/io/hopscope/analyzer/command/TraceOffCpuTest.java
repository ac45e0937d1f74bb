package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KernelFixture;
import io.hopscope.analyzer.testing.KernelRecordingTest;
import io.hopscope.analyzer.testing.TraceSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code trace --bpf}: hand-made offwake intervals in known places become slices on their thread's track. */
class TraceOffCpuTest extends KernelRecordingTest {

    static List<JsonNode> offCpuSlices(JsonNode trace) {
        List<JsonNode> out = new ArrayList<>();
        trace.get("traceEvents").forEach(e -> {
            if ("offcpu".equals(e.path("cat").asText())) {
                out.add(e);
            }
        });
        return out;
    }

    @Test
    void offCpuPartsAreSlicesInTheirPlacesWithTheRunQueueNested() throws Exception {
        Cli r = Cli.run("trace", jfr.toString(), "--bpf", events.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode trace = new ObjectMapper().readTree(r.out());
        assertThat(TraceSchema.check(trace)).isEmpty();
        List<String> seen = new ArrayList<>();
        for (JsonNode e : offCpuSlices(trace)) {
            long tid = e.get("tid").asLong();
            seen.add((tid == fixture.callerTid ? "caller" : tid == fixture.loopTid ? "loop" : "?") + " " + e.get("name").asText()
                    + " " + Math.round(e.get("dur").asDouble()) + " " + e.path("args").path("waker").asText("-"));
        }
        // The 4 intervals in requests (in the wait: 20 ms + 2 ms futex, woken by kj-loop and an interrupt;
        // 3 ms preempted in a segment; 4 ms on kj-loop), each with its run-queue part; none before the requests.
        assertThat(seen).containsExactlyInAnyOrder(
                "caller off-CPU (futex) 20000 kj-loop", "caller run queue 2000 kj-loop",
                "caller off-CPU (futex) 2000 swapper/0 [hardirq]", "caller run queue 500 swapper/0 [hardirq]",
                "caller off-CPU (runnable) 3000 -", "caller run queue 3000 -",
                "loop off-CPU (S) 4000 kj-caller");
        JsonNode futex = offCpuSlices(trace).get(0);
        assertThat(futex.get("args").get("during").asText()).isEqualTo("Mono.block");
        assertThat(futex.get("args").get("requestName").asText()).isEqualTo(KernelFixture.NAME);
        assertThat(futex.get("args").get("runQueueMicros").asDouble()).isEqualTo(2000.0);
        assertThat(futex.get("args").get("futexWake").asBoolean()).isTrue();
    }

    @Test
    void nameSelectsTheSlicesToo() throws Exception {
        Cli r = Cli.run("trace", jfr.toString(), "--bpf", events.toString(), "--name", "other");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(offCpuSlices(new ObjectMapper().readTree(r.out()))).isEmpty();
    }

    @Test
    void schemaCatchesASliceOutsideItsPlace() throws Exception {
        Cli r = Cli.run("trace", jfr.toString(), "--bpf", events.toString());
        JsonNode trace = new ObjectMapper().readTree(r.out());
        JsonNode slice = offCpuSlices(trace).get(0);
        ((com.fasterxml.jackson.databind.node.ObjectNode) slice).put("ts", slice.get("ts").asDouble() - 1e6);
        assertThat(TraceSchema.check(trace)).anyMatch(p -> p.contains("not inside a segment or wait"));
    }

    @Test
    void foldedInputIsRefusedInOneLine() throws Exception {
        Path folded = Files.write(dir.resolve("kj.folded"), List.of("kj-caller;schedule;--;try_to_wake_up;kj-loop 10"));
        Cli r = Cli.run("trace", jfr.toString(), "--bpf", folded.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("hopscope: " + folded + ": folded offwaketime output has no timestamps,"
                + " so it cannot be drawn on a timeline (record with offwake --events)");
        assertThat(r.out()).isEmpty();
    }
}
