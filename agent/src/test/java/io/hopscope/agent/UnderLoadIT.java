package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.jdkhttpserver.JdkHttpServerIT;
import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.PipelineChecks;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import io.hopscope.agent.testing.ServerChecks;
import io.hopscope.agent.testing.TwoAtATime;
import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pipelines and a server's study at several times what the machine can serve, each request
 * checked as PipelineIT and ServerChecks check one on a quiet machine: {@link #CALLERS} closed-loop
 * callers per pipeline (OkHttp sync, then Netty sync-over-async on its few event loops), eight per
 * core of this 2-core machine, so that the callers queue for a core, the event loops for work and
 * the sample's server for threads; and the JDK server's study with {@link #STUDY_CLIENTS} clients
 * on its two request threads and its handler's one pool thread, whose queues fill. Whatever the
 * load did to the order in which threads met, every request keeps its exact hops. Both JVMs run at
 * once ({@link TwoAtATime}), which adds to the load.
 */
class UnderLoadIT {

    static final int CALLERS = 16;
    /** Requests per pipeline: ten for each caller. */
    static final int COUNT = 10 * CALLERS;
    static final int STUDY_CLIENTS = 16;
    static final int STUDY_REQUESTS_PER_CLIENT = 5;
    private static final String SEND = "com.azure.core.http.HttpPipeline#send";
    private static final String SEND_SYNC = "com.azure.core.http.HttpPipeline#sendSync";
    private static final TwoAtATime<String, Object> RUNS = new TwoAtATime<>();

    @BeforeAll
    static void startTheLoad() {
        if (samplesAreBuilt()) {
            RUNS.start("pipelines", () -> {
                AgentRun run = AgentRun.run("jfr=%JFR%,spanthreshold=0", List.of("-cp",
                        System.getProperty("hopscope.test.classes") + File.pathSeparator + SamplesJar.path(),
                        "io.hopscope.testapps.LoaderApp", "own", "pipeline", "--mode", "sync", "--http-client", "okhttp",
                        "--parallel", Integer.toString(CALLERS), "--count", Integer.toString(COUNT), "--next", "own",
                        "pipeline", "--mode", "sync-over-async", "--http-client", "netty", "--parallel",
                        Integer.toString(CALLERS), "--count", Integer.toString(COUNT)));
                assertThat(run.stdout).as(run.stderr).doesNotContain("exit 1", "exit 2");
                return run.cleanRequests(2 * COUNT);
            });
        }
        RUNS.start("study", () -> ServerChecks.check(AgentRun.javaHere(), JdkHttpServerIT.expected()
                .load(STUDY_CLIENTS, STUDY_REQUESTS_PER_CLIENT)));
    }

    private static boolean samplesAreBuilt() {
        return SamplesJar.has("io/hopscope/samples/pipeline/PipelineCommand.class");
    }

    @SuppressWarnings("unchecked")
    private static Map<Long, Requests.Request> pipelines() throws Exception {
        SamplesJar.need("io/hopscope/samples/pipeline/PipelineCommand.class");
        return (Map<Long, Requests.Request>) RUNS.get("pipelines");
    }

    private static List<Requests.Request> calls(String boundary) throws Exception {
        List<Requests.Request> calls = Requests.outbound(pipelines()).values().stream()
                .filter(r -> r.request != null && boundary.equals(r.request.getString("boundary")))
                .collect(Collectors.toList());
        assertThat(calls).as("requests through %s", boundary).hasSizeGreaterThanOrEqualTo(COUNT);
        return calls;
    }

    @Test
    void everyOkHttpSyncRequestStaysOnItsCaller() throws Exception {
        PipelineChecks.okHttpSync(calls(SEND_SYNC));
    }

    @Test
    void everyNettySyncOverAsyncRequestHopsToAnEventLoopAndBack() throws Exception {
        List<Requests.Request> calls = calls(SEND);
        for (Requests.Request r : calls) {
            PipelineChecks.nettySyncOverAsync(r, "io.netty", "reactor-http-");
        }
        long woken = calls.stream().filter(r -> !r.waits.isEmpty()).count();
        System.out.println("UnderLoadIT: " + calls.size() + " Netty requests, " + woken + " woken in block(), "
                + (calls.size() - woken) + " finding the response there");
    }

    @Test
    void everyRequestOfTheSampleServerIsOneOfItsOwn() throws Exception {
        PipelineChecks.sampleServer(Requests.inbound(pipelines()).values(), 2 * COUNT);
    }

    @Test
    void everyRequestOfTheServersStudyKeepsItsHops() throws Exception {
        ServerChecks.Checked study = (ServerChecks.Checked) RUNS.get("study");
        assertThat(study.byTrace).hasSize(STUDY_CLIENTS * STUDY_REQUESTS_PER_CLIENT);
        long longest = study.byTrace.values().stream().flatMap(r -> r.hops.stream())
                .filter(h -> h.getBoolean("serverQueue")).mapToLong(h -> h.getLong("delayNanos")).max().orElse(0);
        System.out.println("UnderLoadIT: " + study.byTrace.size() + " orders, the longest server queue "
                + longest / 1_000_000 + " ms");
    }
}
