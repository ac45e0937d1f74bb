package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/**
 * The samples module's known-path scenario (the fixture the analyzer and eBPF tests share) under
 * the agent: 3 hops, 3 threads, allocation on A and B, and B's 30 ms monitor enter in the recording.
 */
class SamplesKnownPathIT {

    private static final int COUNT = 4;
    private static final int ALLOC_BYTES = 1048576;

    @Test
    void eachRequestIsThreeHopsOverThreeThreads() throws Exception {
        SamplesJar.need("io/hopscope/samples/knownpath/KnownPath.class");
        AgentRun run = AgentRun.run("jfr=%JFR%,requests=io.hopscope.samples.knownpath.KnownPath#request",
                List.of("-jar", SamplesJar.path().toString(), "known-path", "--count", Integer.toString(COUNT)));
        assertThat(run.exitCode).as(run.stderr).isZero();
        List<RecordedEvent> events = run.events();
        Map<Long, Requests.Request> requests = Requests.byId(events);
        assertThat(requests).hasSize(COUNT);
        for (Requests.Request r : requests.values()) {
            assertThat(r.request.getString("name")).isEqualTo("io.hopscope.samples.knownpath.KnownPath#request");
            List<String> hops = r.hops.stream()
                    .map(h -> h.getString("kind") + " " + Requests.threadName(h, "fromThread") + "->"
                            + Requests.threadName(h, "toThread"))
                    .collect(Collectors.toList());
            assertThat(hops).as("hops of request %d", r.id).containsExactly(
                    "handoff known-path-caller->known-path-A",
                    "handoff known-path-A->known-path-B",
                    "wake known-path-B->known-path-caller");
            assertThat(r.threads()).hasSize(3);
            assertThat(r.allocatedBytesOn("known-path-A")).isGreaterThanOrEqualTo(ALLOC_BYTES);
            assertThat(r.allocatedBytesOn("known-path-B")).isGreaterThanOrEqualTo(ALLOC_BYTES);
        }
        // The sample's holder lets go 30 ms after it took the monitor, not after B arrived, so on a
        // loaded machine B's wait can be shorter than 30 ms: every request's wait must still pass
        // the 10 ms threshold of hopscope.jfc, and an undisturbed one is about 30 ms.
        List<RecordedEvent> monitorEnters = events.stream()
                .filter(e -> e.getEventType().getName().equals("jdk.JavaMonitorEnter")
                        && e.getThread().getJavaName().equals("known-path-B"))
                .toList();
        assertThat(monitorEnters).hasSizeGreaterThanOrEqualTo(COUNT - 1);
        assertThat(monitorEnters).anyMatch(e -> e.getDuration().toMillis() >= 25);
    }
}
