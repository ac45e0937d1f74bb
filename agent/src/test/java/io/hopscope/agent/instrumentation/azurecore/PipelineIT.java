package io.hopscope.agent.instrumentation.azurecore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.PipelineChecks;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The azure-core pipeline sample under the agent, both ways a synchronous SDK call can run:
 * OkHttp sendSync stays on the caller thread; Netty send().block() hops to an event loop and back
 * (woken, or finding the response there), every request.
 */
@Isolated("its span counts follow how long calls take")
class PipelineIT {

    private static final int COUNT = 30;

    @BeforeAll
    static void samplesAreBuilt() {
        assumeThat(SamplesJar.has("io/hopscope/samples/pipeline/PipelineCommand.class"))
                .as("samples jar with the pipeline scenario at %s", SamplesJar.path()).isTrue();
    }

    /** Every span is recorded: a loopback request is far shorter than the default 1 ms span threshold. */
    private static Map<Long, Requests.Request> run(String mode, String client) throws Exception {
        return run(mode, client, "jfr=%JFR%,spanthreshold=0");
    }

    private static Map<Long, Requests.Request> run(String mode, String client, String agentOptions) throws Exception {
        AgentRun run = AgentRun.run(agentOptions, List.of("-jar", SamplesJar.path().toString(), "pipeline",
                "--mode", mode, "--http-client", client, "--parallel", "2", "--count", Integer.toString(COUNT)));
        // Measured requests plus the sample's own warm-up/validation ones, if any.
        return run.cleanRequests(COUNT);
    }

    @Test
    void okhttpSyncRequestsStayOnTheCallerThread() throws Exception {
        PipelineChecks.okHttpSync(run("sync", "okhttp").values());
    }

    @Test
    void nettySyncOverAsyncRequestsHopToAnEventLoopAndBack() throws Exception {
        PipelineChecks.nettySyncOverAsync(run("sync-over-async", "netty").values());
    }

    @Test
    void spansOneInThreeRecordsTheSpansOfEveryThirdRequestAndEverythingElseOfAll() throws Exception {
        Map<Long, Requests.Request> requests = run("sync", "okhttp", "jfr=%JFR%,spanthreshold=0,spans=1/3");
        int withSpans = 0;
        for (Requests.Request r : requests.values()) {
            assertThat(r.request).as("Request event of %d", r.id).isNotNull();
            assertThat(r.segments).as("segments of request %d", r.id).isNotEmpty();
            PipelineChecks.assertAllocation(r);
            if (r.id % 3 == 0) {
                PipelineChecks.assertPoliciesInPipelineOrder(r);
                withSpans++;
            } else {
                assertThat(r.spans).as("spans of request %d", r.id).isEmpty();
            }
        }
        assertThat(withSpans).isGreaterThanOrEqualTo(COUNT / 3);
    }
}
