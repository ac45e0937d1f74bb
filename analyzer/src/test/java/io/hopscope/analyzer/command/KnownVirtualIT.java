package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Issue 20's "done when", end to end on the second JDK (21+): {@code KnownVirtual.java} runs under
 * the real agent and its recording goes through {@code report}. Each request hands its work to a
 * new thread that allocates 1 MiB and sleeps 30 ms (a virtual worker also parks 25 ms pinned, in a
 * class initializer), and the caller blocks until the worker wakes it: a virtual caller to a
 * virtual worker, a platform caller to a virtual worker, and a virtual caller to new Thread(r).
 */
@Isolated("carrier mounts and pinning follow the scheduler's timing")
class KnownVirtualIT {

    static final long MS = 1_000_000L;
    static final long KNOWN_BYTES = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void theKnownPathOnVirtualThreadsIsTwoHopsBetweenNamedThreadsWithExactAllocationAndCarriers() throws Exception {
        List<JsonNode> requests = record("virtual-virtual", "platform-virtual", "virtual-platform", "virtual-twice");
        assertThat(requests).hasSize(5);

        JsonNode vv = requests.get(0);
        assertKnownPath(vv, "vcaller-1", true, "vworker-1", true);
        JsonNode carriers = vv.get("carriers");
        // Both threads are virtual: the worker runs at its start and again after its sleep; the
        // caller where it began the request and again after its wake.
        assertThat(carriers.get("virtualThreads").asInt()).isEqualTo(2);
        assertThat(carriers.get("mounts").asInt()).isGreaterThanOrEqualTo(4);
        assertCarrierNames(carriers);
        assertThat(carriers.get("pinnedNanos").asLong()).as("pinned in a class initializer").isGreaterThanOrEqualTo(20 * MS);

        JsonNode pv = requests.get(1);
        assertKnownPath(pv, "main", false, "vworker-1", true);
        carriers = pv.get("carriers");
        assertThat(carriers.get("virtualThreads").asInt()).isEqualTo(1);
        assertThat(carriers.get("mounts").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(carriers.get("mountWaitNanos").asLong()).isPositive();
        assertCarrierNames(carriers);
        assertThat(carriers.get("pinnedNanos").asLong()).isGreaterThanOrEqualTo(20 * MS);

        JsonNode vp = requests.get(2);
        assertKnownPath(vp, "vcaller-1", true, "spawned", false);
        carriers = vp.get("carriers");
        assertThat(carriers.get("virtualThreads").asInt()).isEqualTo(1);
        assertThat(carriers.get("pinnedCount").asInt()).isZero();

        // Two requests in a row on one virtual caller: the second begins in the run in which the first
        // ended, and its bytes before the caller's sleep count to it, not to the first.
        for (JsonNode twice : requests.subList(3, 5)) {
            assertThat(twice.get("hops").asInt()).as(twice.toString()).isZero();
            assertThat(twice.get("allocatedBytes").asLong()).as(twice.toString()).isBetween(KNOWN_BYTES, 2 * KNOWN_BYTES);
            assertThat(twice.get("estimatedAllocatedBytes").asLong()).isZero();
            assertThat(twice.get("carriers").get("mounts").asInt()).isGreaterThanOrEqualTo(2);
        }

        Cli text = Cli.run("report", dir.resolve("known-virtual.jfr").toString(), "--sort", "start");
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains("hop 1: handoff vcaller-1 (virtual) -> vworker-1 (virtual)")
                .contains("virtual threads: 2, ").contains("pinned ")
                .doesNotContain("tid 0").doesNotContain("estimated from allocation samples");
    }

    private static void assertKnownPath(JsonNode r, String caller, boolean callerVirtual, String worker,
                                        boolean workerVirtual) {
        String what = caller + " -> " + worker + ": " + r;
        assertThat(r.get("outcome").asText()).as(what).isEqualTo("ok");
        assertThat(r.get("hops").asInt()).as(what).isEqualTo(2);
        JsonNode handoff = r.get("hopList").get(0);
        JsonNode wake = r.get("hopList").get(1);
        assertThat(handoff.get("kind").asText()).as(what).isEqualTo("handoff");
        assertThat(handoff.get("from").get("name").asText()).as(what).isEqualTo(caller);
        assertThat(handoff.get("to").get("name").asText()).as(what).isEqualTo(worker);
        assertThat(wake.get("kind").asText()).as(what).isEqualTo("wake");
        assertThat(wake.get("from").get("name").asText()).as(what).isEqualTo(worker);
        assertThat(wake.get("to").get("name").asText()).as(what).isEqualTo(caller);
        assertThat(r.get("threads")).as(what).hasSize(2);
        JsonNode callerThread = thread(r, caller);
        JsonNode workerThread = thread(r, worker);
        assertThat(callerThread.get("virtual").asBoolean()).as(what).isEqualTo(callerVirtual);
        assertThat(workerThread.get("virtual").asBoolean()).as(what).isEqualTo(workerVirtual);
        // Exact, not estimated: a virtual worker's bytes come from its carriers' counters.
        assertThat(workerThread.get("allocatedBytes").asLong()).as(what).isGreaterThanOrEqualTo(KNOWN_BYTES);
        assertThat(r.get("allocatedBytes").asLong()).as(what).isGreaterThanOrEqualTo(KNOWN_BYTES);
        assertThat(r.get("estimatedAllocatedBytes").asLong()).as(what).isZero();
        // The caller was blocked at least as long as the worker slept.
        assertThat(r.get("blockedNanos").asLong()).as(what).isGreaterThanOrEqualTo(30 * MS);
    }

    private static void assertCarrierNames(JsonNode carriers) {
        assertThat(carriers.get("carrierNames")).isNotEmpty()
                .allSatisfy(n -> assertThat(n.asText()).startsWith("ForkJoinPool-"));
        assertThat(carriers.get("mountedNanos").asLong()).isPositive();
    }

    private static JsonNode thread(JsonNode request, String name) {
        for (JsonNode t : request.get("threads")) {
            if (name.equals(t.get("name").asText())) {
                return t;
            }
        }
        throw new AssertionError("no thread " + name + " in " + request);
    }

    private List<JsonNode> record(String... scenarios) throws Exception {
        Path java = Paths.secondJava();
        Paths.needBuiltJars();
        Path agent = Paths.agentJar();
        Path source = Paths.moduleDir().resolve("src/test/resources/java25/KnownVirtual.java");
        Path jfr = dir.resolve("known-virtual.jfr");
        List<String> cmd = Paths.shortJvm(java);
        cmd.addAll(List.of("-javaagent:" + agent + "=jfr=" + jfr + ",requests=KnownVirtual#request", source.toString()));
        cmd.addAll(List.of(scenarios));
        Path log = dir.resolve("known-virtual.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(log)).isZero();
        assertThat(Files.readString(log)).doesNotContain("sun.misc.Unsafe");

        Cli r = Cli.run("report", jfr.toString(), "--format", "json", "--sort", "start");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<JsonNode> list = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).get("requests").forEach(list::add);
        return list;
    }
}
