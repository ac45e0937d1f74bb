package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Requests;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent's own known path (io.hopscope.testapps.KnownPathApp: caller → A → B → future the caller
 * waits on), on a class path without Reactor, Netty, azure-core or OkHttp: exactly 3 hops and 3
 * threads per request, the allocation made on A and on B attributed to the request.
 */
class KnownPathIT {

    private static final int REQUESTS = 4;
    static final int ALLOC_BYTES = 1 << 20;
    static final String NAME = "io.hopscope.testapps.KnownPathApp#request";
    private static AgentRun run;
    private static List<RecordedEvent> events;

    @BeforeAll
    static void runKnownPath() throws Exception {
        run = AgentRun.run("jfr=%JFR%,requests=" + NAME,
                List.of("-cp", System.getProperty("hopscope.test.classes"), "io.hopscope.testapps.KnownPathApp",
                        Integer.toString(REQUESTS), Integer.toString(ALLOC_BYTES)));
        events = run.events();
    }

    @Test
    void theApplicationRunsNormallyWithoutReactorOrAzureCore() {
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stdout.lines().filter(l -> l.startsWith("request ")).count()).isEqualTo(REQUESTS);
        assertThat(run.agentLines()).as("the agent's stderr lines").isEmpty();
        RecordedEvent info = events.stream().filter(e -> e.getEventType().getName().equals("hopscope.AgentInfo"))
                .findFirst().orElseThrow();
        assertThat(info.getString("instrumentations").split(";"))
                .contains("executors", "futures", "requests")
                .doesNotContain("reactor", "azure-core", "netty", "okhttp");
        assertThat(info.getString("options")).contains("requests=io.hopscope.testapps.KnownPathApp#request");
        assertThat(events).noneMatch(e -> e.getEventType().getName().equals("hopscope.AgentError"));
    }

    @Test
    void everyRequestIsThreeHopsOverThreeThreads() {
        Map<Long, Requests.Request> requests = Requests.byId(events);
        assertThat(requests).hasSize(REQUESTS);
        for (Requests.Request r : requests.values()) {
            assertThreeHopsOverThreeThreads(r, NAME);
        }
    }

    /** A known-path request, of boundary {@code name}: ok, 3 hops over the caller, A and B. */
    static void assertThreeHopsOverThreeThreads(Requests.Request r, String name) {
        assertThat(r.request).as("Request event of %d", r.id).isNotNull();
        assertThat(r.request.getString("name")).isEqualTo(name);
        assertThat(r.request.getString("outcome")).isEqualTo("ok");
        assertThat(r.request.getThread().getJavaName()).isEqualTo("known-path-caller");
        List<String> hops = r.hops.stream()
                .map(h -> h.getString("kind") + " " + Requests.threadName(h, "fromThread") + "->"
                        + Requests.threadName(h, "toThread"))
                .collect(Collectors.toList());
        assertThat(hops).as("hops of request %d", r.id).containsExactly(
                "handoff known-path-caller->known-path-A",
                "handoff known-path-A->known-path-B",
                "wake known-path-B->known-path-caller");
        Set<String> threads = r.segments.stream().map(s -> s.getThread().getJavaName()).collect(Collectors.toSet());
        assertThat(threads).containsExactlyInAnyOrder("known-path-caller", "known-path-A", "known-path-B");
        assertThat(r.threads()).hasSize(3);
    }

    /** What A and B allocated is the request's, and little besides. */
    static void assertAllocatedOnAAndB(Requests.Request r) {
        assertThat(r.allocatedBytesOn("known-path-B")).as("bytes on B, request %d", r.id)
                .isGreaterThanOrEqualTo(ALLOC_BYTES);
        assertThat(r.allocatedBytesOn("known-path-A")).as("bytes on A, request %d", r.id)
                .isGreaterThanOrEqualTo(ALLOC_BYTES);
        // Beside its two arrays the request allocates a few small objects (the tasks, the future; the
        // first time, its lambdas' linkage): far less than another array, which a segment counted
        // twice, or a segment of the request before or after, would add.
        assertThat(r.allocatedBytesOn("known-path-caller")).as("bytes on the caller, request %d", r.id)
                .isLessThan(ALLOC_BYTES);
        assertThat(r.allocatedBytes()).as("bytes of request %d", r.id).isLessThan(3L * ALLOC_BYTES);
    }

    /** The caller's one wait, on the future B completes, woken by B. */
    static void assertWokenByB(Requests.Request r) {
        assertThat(r.waits).hasSize(1);
        RecordedEvent wait = r.waits.get(0);
        assertThat(wait.getString("kind")).isEqualTo("CompletableFuture.get");
        assertThat(Requests.threadName(wait, "wakerThread")).isEqualTo("known-path-B");
        assertThat(wait.getLong("wakeLatencyNanos")).isPositive();
        assertThat(wait.getString("outcome")).isEqualTo("value");
        assertThat(wait.getBoolean("nonBlockingThread")).isFalse();
    }

    @Test
    void allocationOnEachExecutorIsAttributedToTheRequest() {
        for (Requests.Request r : Requests.byId(events).values()) {
            assertAllocatedOnAAndB(r);
        }
    }

    @Test
    void theWaitIsRecordedWithItsWakerAndTheMonitorEnterOnB() {
        for (Requests.Request r : Requests.byId(events).values()) {
            assertWokenByB(r);
        }
        // The 30 ms monitor enter on B passes the recording's 10 ms threshold; without lockstacks=true
        // it has no stack trace (see RecordingSettings).
        assertThat(events).filteredOn(e -> e.getEventType().getName().equals("jdk.JavaMonitorEnter")
                && e.getThread().getJavaName().equals("known-path-B")
                && e.getDuration().toMillis() >= 25).hasSizeGreaterThanOrEqualTo(REQUESTS)
                .allMatch(e -> e.getStackTrace() == null);
        assertThat(events).anyMatch(e -> e.getEventType().getName().equals("hopscope.ClockSync")
                && e.getLong("monotonicNanos") > 0);
    }
}
