package io.hopscope.agent.instrumentation.azurecore;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Jdk11;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.PipelineChecks;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import io.hopscope.agent.testing.TwoAtATime;
import io.hopscope.testapps.PipelineApp;
import java.io.File;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
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
 * The azure-core pipeline sample under the agent, both ways a synchronous SDK call can run:
 * OkHttp sendSync stays on the caller thread; Netty send().block() hops to an event loop and back
 * (woken, or finding the response there), every request. Both ways run in one JVM, told apart
 * by their boundary (sendSync, send), beside the sample server's inbound requests; the run with one
 * request's spans in three in a second one. The same pipeline outside the samples
 * (testapps.PipelineApp) runs both ways on the oldest azure-core supported and the newest tested,
 * each with the HTTP clients released with it, and on JDK 11.
 */
class PipelineIT {

    private static final int COUNT = 30;
    private static final String SEND = "com.azure.core.http.HttpPipeline#send";
    private static final String SEND_SYNC = "com.azure.core.http.HttpPipeline#sendSync";
    /** The class's two JVM runs of the samples, queued when it starts: neither measures time, so both run at once. */
    private static final TwoAtATime<String, Map<Long, Requests.Request>> RUNS = new TwoAtATime<>();

    @BeforeAll
    static void startTheSamplesRuns() {
        if (!samplesAreBuilt()) {
            return;
        }
        // Every span is recorded: a loopback request is far shorter than the default 1 ms span threshold.
        RUNS.start("both ways", () -> run("jfr=%JFR%,spanthreshold=0", 2 * COUNT, "own", "pipeline", "--mode", "sync",
                "--http-client", "okhttp", "--parallel", "2", "--count", Integer.toString(COUNT), "--next", "own",
                "pipeline", "--mode", "sync-over-async", "--http-client", "netty", "--parallel", "2", "--count",
                Integer.toString(COUNT)));
        // One request in three by id: the sample server's requests, which take ids too, are left out
        // (disable=jetty), so that one in three ids is one in three of the pipeline's requests.
        RUNS.start("spans 1/3", () -> run("jfr=%JFR%,spanthreshold=0,spans=1/3,disable=jetty", COUNT, "own",
                "pipeline", "--mode", "sync", "--http-client", "okhttp", "--parallel", "2", "--count",
                Integer.toString(COUNT)));
    }

    private static boolean samplesAreBuilt() {
        return SamplesJar.has("io/hopscope/samples/pipeline/PipelineCommand.class");
    }

    /** The samples' runs need their jar; the tests of the ends and of JDK 11 do not. */
    private static Map<Long, Requests.Request> samplesRun(String name) throws Exception {
        SamplesJar.need("io/hopscope/samples/pipeline/PipelineCommand.class");
        return RUNS.get(name);
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

    /** The client requests of the run of both ways whose boundary is {@code boundary}, at least COUNT of them. */
    private static List<Requests.Request> bothWays(String boundary) throws Exception {
        Collection<Requests.Request> requests = Requests.outbound(samplesRun("both ways")).values();
        assertThat(requests).as("requests with a Request event").allMatch(r -> r.request != null);
        assertThat(requests).extracting(r -> r.request.getString("boundary")).containsOnly(SEND, SEND_SYNC);
        List<Requests.Request> ofBoundary = requests.stream().filter(r -> r.request.getString("boundary").equals(boundary))
                .toList();
        assertThat(ofBoundary).as("requests through %s", boundary).hasSizeGreaterThanOrEqualTo(COUNT);
        return ofBoundary;
    }

    @Test
    void okhttpSyncRequestsStayOnTheCallerThread() throws Exception {
        PipelineChecks.okHttpSync(bothWays(SEND_SYNC));
    }

    @Test
    void nettySyncOverAsyncRequestsHopToAnEventLoopAndBack() throws Exception {
        PipelineChecks.nettySyncOverAsync(bothWays(SEND));
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
        PipelineChecks.okHttpSync(byBoundary.get(SEND_SYNC), PipelineApp.POLICIES);
        PipelineChecks.nettySyncOverAsync(byBoundary.get(SEND), "io.netty", "reactor-http-", PipelineApp.POLICIES);
    }

    /**
     * Both ways on JDK 11, where the samples (built for 17, their server Jetty 12) do not run: the
     * test application builds the sample's pipeline and calls a server in this JVM.
     */
    @Test
    void bothWaysOnJdk11() throws Exception {
        String java = Jdk11.javaOrMissing();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = "blob".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        Collection<Requests.Request> requests;
        try {
            AgentRun run = AgentRun.run(java, "jfr=%JFR%,spanthreshold=0", List.of("-cp",
                    System.getProperty("hopscope.test.classes") + File.pathSeparator + SamplesJar.path(),
                    "io.hopscope.testapps.PipelineApp", "http://127.0.0.1:" + server.getAddress().getPort() + "/blob",
                    Integer.toString(COUNT)));
            requests = run.cleanRequests(2 * COUNT).values();
        } finally {
            server.stop(0);
        }
        List<String> policies = PipelineApp.POLICIES;
        PipelineChecks.okHttpSync(requests.stream().filter(r -> r.request.getString("boundary").equals(SEND_SYNC))
                .toList(), policies);
        PipelineChecks.nettySyncOverAsync(requests.stream().filter(r -> r.request.getString("boundary").equals(SEND))
                .toList(), "io.netty", "reactor-http-", policies);
        assertThat(requests).hasSize(2 * COUNT);
    }

    /** The sample's server answered every call of both ways: each an inbound request of its own. */
    @Test
    void theSampleServersRequestsAreInboundRequests() throws Exception {
        PipelineChecks.sampleServer(Requests.inbound(samplesRun("both ways")).values(), 2 * COUNT);
    }

    @Test
    void spansOneInThreeRecordsTheSpansOfEveryThirdRequestAndEverythingElseOfAll() throws Exception {
        Map<Long, Requests.Request> requests = samplesRun("spans 1/3");
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
