package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Requests;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/**
 * The jfr= recording writes spans of 1 ms and more by default (hopscope.jfc), every span with
 * spanthreshold=0; requests and segments are written whatever the threshold.
 */
class SpanThresholdIT {

    private static final int COUNT = 20;
    private static final String SLOW = "io.hopscope.testapps.SpanThresholdApp$SlowStage";
    private static final String FAST = "io.hopscope.testapps.SpanThresholdApp$FastStage";

    private static Map<Long, Requests.Request> run(String extraOptions) throws Exception {
        AgentRun run = AgentRun.run("jfr=%JFR%,requests=io.hopscope.testapps.SpanThresholdApp#request,"
                + "policies=io.hopscope.testapps.SpanThresholdApp$Stage" + extraOptions,
                List.of("-cp", System.getProperty("hopscope.test.classes"), "io.hopscope.testapps.SpanThresholdApp",
                        Integer.toString(COUNT)));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.agentLines()).isEmpty();
        Map<Long, Requests.Request> requests = Requests.byId(run.events());
        assertThat(requests).hasSize(COUNT);
        for (Requests.Request r : requests.values()) {
            assertThat(r.request).as("Request event of %d", r.id).isNotNull();
            assertThat(r.segments).as("segments of request %d", r.id).isNotEmpty();
        }
        return requests;
    }

    @Test
    void byDefaultOnlySpansOfOneMillisecondOrMoreAreWritten() throws Exception {
        for (Requests.Request r : run("").values()) {
            assertThat(r.spans).as("spans of request %d", r.id).allSatisfy(s ->
                    assertThat(s.getDuration()).isGreaterThanOrEqualTo(Duration.ofMillis(1)));
            // The 5 ms stage is always there; the instant one only if the machine stalled it for 1 ms.
            assertThat(r.spans).extracting(s -> s.getString("name")).contains(SLOW);
        }
    }

    @Test
    void spanThresholdZeroWritesEverySpan() throws Exception {
        for (Requests.Request r : run(",spanthreshold=0").values()) {
            assertThat(r.spans).extracting(s -> s.getString("name")).as("spans of request %d", r.id)
                    .containsExactlyInAnyOrder(FAST, SLOW);
            RecordedEvent fast = span(r, FAST);
            RecordedEvent slow = span(r, SLOW);
            assertThat(fast.getLong("parentSpanId")).isEqualTo(slow.getLong("spanId"));
        }
    }

    private static RecordedEvent span(Requests.Request r, String name) {
        return r.spans.stream().filter(s -> s.getString("name").equals(name)).findFirst().orElseThrow();
    }
}
