package io.hopscope.agent.instrumentation.azurecore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.PipelineChecks;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import io.hopscope.agent.testing.TwoAtATime;
import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An azure-core pipeline under the agent, both ways a synchronous SDK call can run: OkHttp sendSync
 * stays on the caller thread; Netty send().block() hops to an event loop and back (woken, or finding
 * the response there), every request. Both ways run in one JVM (testapps.PipelineApp, the samples'
 * pipeline), told apart by their boundary (sendSync, send), on the oldest azure-core supported and
 * the newest tested, each with the HTTP clients released with it; the samples' own pipeline, with
 * one request's spans in three, in another.
 */
class PipelineIT {

    private static final int COUNT = 30;
    private static final String SEND = "com.azure.core.http.HttpPipeline#send";
    private static final String SEND_SYNC = "com.azure.core.http.HttpPipeline#sendSync";
    private static final List<String> POLICIES = PipelineChecks.policies("io.hopscope.testapps.PipelineApp$TagPolicy",
            "io.hopscope.testapps.PipelineApp$AsyncOnlyPolicy");
    /** The samples' run, queued when the class starts: it measures no time, so it runs beside the others. */
    private static final TwoAtATime<String, Map<Long, Requests.Request>> RUNS = new TwoAtATime<>();

    @BeforeAll
    static void startTheSamplesRun() {
        if (samplesAreBuilt()) {
            // Every span is recorded: a loopback request is far shorter than the default 1 ms span threshold.
            RUNS.start("spans 1/3", () -> run("jfr=%JFR%,spanthreshold=0,spans=1/3", COUNT, "own", "pipeline",
                    "--mode", "sync", "--http-client", "okhttp", "--parallel", "2", "--count", Integer.toString(COUNT)));
        }
    }

    private static boolean samplesAreBuilt() {
        return SamplesJar.has("io/hopscope/samples/pipeline/PipelineCommand.class");
    }

    /**
     * Runs the pipeline commands ({@code own} groups of io.hopscope.testapps.LoaderApp, on the class
     * path: one JVM start with the agent for several of them) and gives their requests, at least
     * {@code atLeast} (the measured ones plus the sample's own warm-up/validation ones, if any).
     */
    private static Map<Long, Requests.Request> run(String agentOptions, int atLeast, String... groups) throws Exception {
        List<String> args = new ArrayList<>(List.of("-cp", System.getProperty("hopscope.test.classes")
                + File.pathSeparator + SamplesJar.path(), "io.hopscope.testapps.LoaderApp"));
        args.addAll(List.of(groups));
        AgentRun run = AgentRun.run(agentOptions, args);
        assertThat(run.stdout).as(run.stderr).doesNotContain("exit 1", "exit 2");
        return run.cleanRequests(atLeast);
    }

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("azure-core", new AzureCoreInstrumentation().versions());
    }

    @ParameterizedTest(name = "{0} azure-core {1}")
    @MethodSource("ends")
    void okHttpSyncStaysOnTheCallerAndNettySyncOverAsyncHopsToAnEventLoopAndBack(String java, String version,
            String libraries) throws Exception {
        String classPath = System.getProperty("hopscope.test.classes") + File.pathSeparator + libraries;
        // Every span is recorded: a loopback request is far shorter than the default 1 ms span threshold.
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,spanthreshold=0",
                List.of("-cp", classPath, "io.hopscope.testapps.PipelineApp", Integer.toString(COUNT)));
        assertThat(run.stdout).as(run.stderr).contains("responses ok: " + 2 * COUNT);
        // The app's server is the JDK's, in process: the calls it answered are inbound requests of their own.
        Collection<Requests.Request> requests = Requests.outbound(run.cleanRequests(2 * COUNT)).values();
        assertThat(requests).as("requests with a Request event").allMatch(r -> r.request != null);
        assertThat(requests).extracting(r -> r.request.getString("boundary")).containsOnly(SEND, SEND_SYNC);
        Map<String, List<Requests.Request>> byBoundary = requests.stream()
                .collect(Collectors.groupingBy(r -> r.request.getString("boundary")));
        assertThat(byBoundary.get(SEND_SYNC)).as("requests through sendSync").hasSize(COUNT);
        assertThat(byBoundary.get(SEND)).as("requests through send").hasSize(COUNT);
        PipelineChecks.okHttpSync(byBoundary.get(SEND_SYNC), POLICIES);
        PipelineChecks.nettySyncOverAsync(byBoundary.get(SEND), "io.netty", "reactor-http-", POLICIES);
    }

    @Test
    void spansOneInThreeRecordsTheSpansOfEveryThirdRequestAndEverythingElseOfAll() throws Exception {
        assumeThat(samplesAreBuilt()).as("samples jar with the pipeline scenario at %s", SamplesJar.path()).isTrue();
        Map<Long, Requests.Request> requests = RUNS.get("spans 1/3");
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
