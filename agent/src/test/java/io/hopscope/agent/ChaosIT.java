package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.executors.AnyExecutorIT;
import io.hopscope.agent.instrumentation.executors.ScheduledHandoverIT;
import io.hopscope.agent.instrumentation.forkjoin.ForkJoinHandoverIT;
import io.hopscope.agent.instrumentation.futures.AsyncStagesIT;
import io.hopscope.agent.instrumentation.grpcserver.GrpcServerIT;
import io.hopscope.agent.instrumentation.jdkhttpserver.JdkHttpServerIT;
import io.hopscope.agent.instrumentation.jetty.JettyIT;
import io.hopscope.agent.instrumentation.parks.ParkWaitsIT;
import io.hopscope.agent.instrumentation.reactornetty.ReactorNettyServerIT;
import io.hopscope.agent.instrumentation.threads.ThreadStartIT;
import io.hopscope.agent.instrumentation.tomcat.TomcatIT;
import io.hopscope.agent.instrumentation.tomcat.TomcatVirtualIT;
import io.hopscope.agent.instrumentation.undertow.UndertowIT;
import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.CiSkip;
import io.hopscope.agent.testing.AppRuns;
import io.hopscope.agent.testing.ChaosRuns;
import io.hopscope.agent.testing.CpuHog;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Jdk11;
import io.hopscope.agent.testing.PipelineChecks;
import io.hopscope.agent.testing.RelocatedSamples;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import io.hopscope.agent.testing.ServerChecks;
import io.hopscope.agent.testing.TwoAtATime;
import io.hopscope.agent.testing.WaitTimings;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The exact-path ITs' workloads under timing chaos ({@code FaultAgent}'s mode chaos: a delay or a
 * yield before and after each hook, drawn per thread from a seed, {@code Chaos}), each once per
 * seed ({@link ChaosRuns#seeds}: 1 to 5, or hopscope.chaos.seeds), and each run checked with its own
 * IT's checks: the same exact hops, kinds, threads, waits and allocation whatever order the threads
 * met in. A JVM runs several workloads, every seed of them one after another
 * (io.hopscope.testapps.ChaosApp), and the JVMs run two at a time ({@link TwoAtATime}): the known
 * path, the JDK's hand-overs, any executor, parks and ways back on JDK 17, the second JDK (with
 * virtual threads) and JDK 11; the samples' known path, both pipelines and the relocated one; each
 * server's study (the JDK's, Tomcat, Jetty, Undertow, reactor-netty, gRPC), and Tomcat's and
 * Jetty's with a virtual thread per request on the second JDK. A failure names its seed and how to
 * run it again (docs/tests.md).
 */
class ChaosIT {

    private static final List<Long> SEEDS = ChaosRuns.seeds();
    /** Each JVM's runs, queued when the class starts, and what it runs, by the JVM's key. */
    private static final TwoAtATime<String, ChaosRuns> RUNS = new TwoAtATime<>();
    private static final Map<String, Jvm> JVMS = new ConcurrentHashMap<>();
    /** The JVMs' keys (the hand-overs': with the JVM's java). */
    private static final String HANDOVERS = "handovers on ";
    private static final String PIPELINES = "pipelines";
    private static final String SERVERS = "servers";
    private static final String VIRTUAL_SERVERS = "virtual thread servers";
    private static final String UNDER_A_HOG = "under a CPU hog";
    /** A JVM of every seed of several workloads takes longer than one of one: the servers' about 5 s a seed. */
    private static final int TIMEOUT_SECONDS = 120 + 60 * SEEDS.size();
    /** Requests per pipeline run, of two callers. */
    private static final int PIPELINE_COUNT = 6;

    /** One workload: the IT it comes from, its program (ChaosApp's), and that IT's checks of one run of it. */
    private static final class Workload {
        final String it;
        final List<String> program;
        final Check check;

        Workload(String it, List<String> program, Check check) {
            this.it = it;
            this.program = program;
            this.check = check;
        }
    }

    /** An IT's checks of one run of its workload. */
    @FunctionalInterface
    private interface Check {
        void check(ChaosRuns.Run run) throws Exception;
    }

    /** What ChaosIT runs on one JVM: its workloads, and under which seeds. */
    private static final class Jvm {
        final List<Long> seeds;
        final List<Workload> workloads;

        Jvm(List<Long> seeds, List<Workload> workloads) {
            this.seeds = seeds;
            this.workloads = workloads;
        }
    }

    @BeforeAll
    static void startTheChaosRuns() throws Exception {
        // The longest first, the one beside a hog last, so that two at a time end together.
        start(SERVERS, AgentRun.javaHere(), "jfr=%JFR%,spanthreshold=0", SEEDS, servers(), false);
        for (String java : Jdk11.jvms().toList()) {
            if (!java.equals(Jdk11.MISSING)) {
                start(HANDOVERS + java, java, HANDOVER_OPTIONS, SEEDS, handovers(java), false);
            }
        }
        boolean samples = SamplesJar.has("io/hopscope/samples/pipeline/PipelineCommand.class");
        if (samples) {
            start(PIPELINES, AgentRun.javaHere(), PIPELINE_OPTIONS, SEEDS, pipelines(), false);
        }
        String second = Handovers.secondJvm();
        if (second != null) {
            start(VIRTUAL_SERVERS, second, "jfr=%JFR%,spanthreshold=0", SEEDS, virtualThreadServers(), false);
        }
        // Once, with the first seed, beside a hog that keeps every core busy: the workloads whose
        // threads meet as they come (the hand-over apps force their orders), the known path, both
        // pipelines and the JDK's server, on one JVM.
        List<Workload> hogged = new ArrayList<>(List.of(knownPath()));
        if (samples) {
            hogged.addAll(bothWays());
        }
        hogged.add(study("JdkHttpServerIT", JdkHttpServerIT.expected(), null));
        start(UNDER_A_HOG, AgentRun.javaHere(), PIPELINE_OPTIONS + ";" + KnownPathIT.NAME, SEEDS.subList(0, 1), hogged,
                true);
    }

    /** Queues the JVM {@code key}: {@code workloads} under {@code seeds} on {@code java}, beside a CPU hog or not. */
    private static void start(String key, String java, String options, List<Long> seeds, List<Workload> workloads,
            boolean hog) {
        JVMS.put(key, new Jvm(seeds, workloads));
        List<List<String>> programs = workloads.stream().map(w -> w.program).toList();
        RUNS.start(key, () -> {
            if (!hog) {
                return ChaosRuns.run(java, options, seeds, programs, TIMEOUT_SECONDS);
            }
            try (CpuHog cpuHog = CpuHog.start()) {
                ChaosRuns runs = ChaosRuns.run(java, options, seeds, programs, TIMEOUT_SECONDS);
                assertThat(cpuHog.isAlive()).as("the CPU hog, still spinning at the end of the run").isTrue();
                System.out.println("ChaosIT " + key + ": the hog took " + cpuHog.cpu().toMillis() + " ms of CPU in "
                        + runs.millis + " ms");
                return runs;
            }
        });
    }

    // ---------------------------------------------------------------- the workloads

    private static final String HANDOVER_APP = "io.hopscope.testapps.HandoverApp";
    private static final String ANY_EXECUTOR_APP = "io.hopscope.testapps.AnyExecutorApp";
    private static final String PARK_WAITS_APP = "io.hopscope.testapps.ParkWaitsApp";
    private static final List<String> HANDOVER_BOUNDARIES = List.of(KnownPathIT.NAME, Handovers.BOUNDARY,
            ANY_EXECUTOR_APP + "#request", PARK_WAITS_APP + "#request", WaitTimings.BOUNDARY);
    private static final String HANDOVER_OPTIONS = "jfr=%JFR%,requests=" + String.join(";", HANDOVER_BOUNDARIES);
    private static final String[] RETURN_HOP_KINDS = {"CompletableFuture.get", "CompletableFuture.join",
        "FutureTask.get"};
    private static final String[] REACTOR_KINDS = {"Mono.block", "Flux.blockFirst", "Flux.blockLast"};

    /**
     * The known path and the JDK's hand-overs, any executor, parks and ways back, on {@code java}.
     * Each program has Reactor: HandoverApp uses ReturnHopApp's helpers, and ReturnHopApp, a boundary
     * in this JVM, is rewritten wherever it is loaded, which needs the Reactor types it names.
     */
    private static List<Workload> handovers(String java) throws Exception {
        String reactor = WaitTimings.reactor();
        List<Workload> w = new ArrayList<>(List.of(knownPath()));
        w.add(scenarios("ScheduledHandoverIT", reactor, HANDOVER_APP, ScheduledHandoverIT.SCENARIOS,
                requests -> ScheduledHandoverIT.check(java, requests)));
        w.add(scenarios("ForkJoinHandoverIT", reactor, HANDOVER_APP, ForkJoinHandoverIT.SCENARIOS,
                requests -> ForkJoinHandoverIT.check(java, requests)));
        w.add(scenarios("AsyncStagesIT", reactor, HANDOVER_APP, AsyncStagesIT.SCENARIOS,
                requests -> AsyncStagesIT.check(java, requests)));
        w.add(scenarios("ThreadStartIT", reactor, HANDOVER_APP, ThreadStartIT.SCENARIOS,
                requests -> ThreadStartIT.check(java, requests)));
        w.add(scenarios("AnyExecutorIT", reactor + File.pathSeparator + AppRuns.classPathOf(AnyExecutorIT.LIBRARIES),
                ANY_EXECUTOR_APP, AnyExecutorIT.SCENARIOS, requests -> AnyExecutorIT.check(java, requests)));
        w.add(scenarios("ParkWaitsIT", reactor, PARK_WAITS_APP, ParkWaitsIT.SCENARIOS,
                requests -> ParkWaitsIT.check(java, requests)));
        if (!Jdk11.is(java)) {
            // As the ITs: the futures' on this JVM, Reactor's on this one and the second JDK.
            List<String> kinds = new ArrayList<>(List.of(REACTOR_KINDS));
            if (java.equals(AgentRun.javaHere())) {
                kinds.addAll(0, List.of(RETURN_HOP_KINDS));
            }
            String[] all = kinds.toArray(new String[0]);
            w.add(new Workload("ReturnHopIT", ChaosRuns.program(reactor, with("io.hopscope.testapps.ReturnHopApp", all)),
                    run -> WaitTimings.check(run.inOrder(WaitTimings.BOUNDARY, 2 * all.length), all)));
        }
        if (java.equals(Handovers.secondJvm())) {
            w.add(scenarios("ThreadStartIT", reactor, HANDOVER_APP, ThreadStartIT.VIRTUAL_SCENARIOS,
                    ThreadStartIT::checkVirtual));
            w.add(scenarios("ForkJoinHandoverIT", reactor, HANDOVER_APP, new String[] {ForkJoinHandoverIT.VIRTUAL},
                    requests -> ForkJoinHandoverIT.checkVirtual(requests.get(0))));
        }
        return w;
    }

    /** KnownPathApp's three requests, each as KnownPathIT checks one. */
    private static Workload knownPath() throws Exception {
        return new Workload("KnownPathIT", ChaosRuns.program(WaitTimings.reactor(), List.of(
                "io.hopscope.testapps.KnownPathApp", "3", Integer.toString(KnownPathIT.ALLOC_BYTES))), run -> {
                    for (Requests.Request r : run.inOrder(KnownPathIT.NAME, 3)) {
                        KnownPathIT.assertThreeHopsOverThreeThreads(r, KnownPathIT.NAME);
                        KnownPathIT.assertAllocatedOnAAndB(r);
                        KnownPathIT.assertWokenByB(r);
                    }
                });
    }

    /** An IT's checks of the requests of a test app's scenarios, in order. */
    @FunctionalInterface
    private interface ScenarioCheck {
        void check(List<Requests.Request> requests);
    }

    /** A test app that makes one request per scenario (its boundary {@code app#request}), and its IT's checks of them. */
    private static Workload scenarios(String it, String libraries, String app, String[] scenarios, ScenarioCheck check) {
        return new Workload(it, ChaosRuns.program(libraries, with(app, scenarios)),
                run -> check.check(run.inOrder(app + "#request", scenarios.length)));
    }

    private static List<String> with(String mainClass, String... args) {
        List<String> program = new ArrayList<>(List.of(mainClass));
        program.addAll(List.of(args));
        return program;
    }

    private static final String SAMPLES_KNOWN_PATH = "io.hopscope.samples.knownpath.KnownPath#request";
    private static final String PIPELINE_OPTIONS = "jfr=%JFR%,spanthreshold=0,requests=" + SAMPLES_KNOWN_PATH;

    /** The samples' known path, both pipelines, and the relocated Netty pipeline (when its jar is built). */
    private static List<Workload> pipelines() {
        List<Workload> w = new ArrayList<>();
        w.add(new Workload("SamplesKnownPathIT", ChaosRuns.program(SamplesJar.path().toString(), List.of("--samples",
                "known-path", "--count", "3", "--pause-ms", "10")), run -> {
                    for (Requests.Request r : run.inOrder(SAMPLES_KNOWN_PATH, 3)) {
                        KnownPathIT.assertThreeHopsOverThreeThreads(r, SAMPLES_KNOWN_PATH);
                        KnownPathIT.assertAllocatedOnAAndB(r);
                    }
                }));
        w.addAll(bothWays());
        if (Files.isRegularFile(RelocatedSamples.jar())) {
            w.add(new Workload("RelocatedPipelineIT", ChaosRuns.program(RelocatedSamples.jar().toString(),
                    pipeline("sync-over-async", "netty")), run -> {
                        for (Requests.Request r : outbound(run)) {
                            PipelineChecks.nettySyncOverAsync(r, RelocatedSamples.NETTY,
                                    "com.example.shaded.reactor-http-");
                        }
                    }));
        }
        return w;
    }

    /** The samples' pipeline both ways, each request of each as PipelineIT checks one, and their server's. */
    private static List<Workload> bothWays() {
        String samples = SamplesJar.path().toString();
        return List.of(new Workload("PipelineIT", ChaosRuns.program(samples, pipeline("sync", "okhttp")), run -> {
            PipelineChecks.okHttpSync(outbound(run));
            PipelineChecks.sampleServer(Requests.inbound(run.requests).values(), PIPELINE_COUNT);
        }), new Workload("PipelineIT", ChaosRuns.program(samples, pipeline("sync-over-async", "netty")), run -> {
            for (Requests.Request r : outbound(run)) {
                PipelineChecks.nettySyncOverAsync(r, "io.netty", "reactor-http-");
            }
            PipelineChecks.sampleServer(Requests.inbound(run.requests).values(), PIPELINE_COUNT);
        }));
    }

    private static List<String> pipeline(String mode, String client) {
        return List.of("--samples", "pipeline", "--mode", mode, "--http-client", client, "--parallel", "2", "--count",
                Integer.toString(PIPELINE_COUNT));
    }

    /** A pipeline run's calls (the sample server's requests are inbound ones), at least the measured ones. */
    private static List<Requests.Request> outbound(ChaosRuns.Run run) {
        List<Requests.Request> calls = new ArrayList<>(Requests.outbound(run.requests).values());
        assertThat(calls).as("calls of %s", run).hasSizeGreaterThanOrEqualTo(PIPELINE_COUNT);
        return calls;
    }

    /** Each server's study on the newest release tested, with the cases of its IT that read the study's requests. */
    private static List<Workload> servers() {
        return List.of(study("JdkHttpServerIT", JdkHttpServerIT.expected(), null),
                study("TomcatIT", TomcatIT.newest(), null),
                study("JettyIT", JettyIT.newest(), null),
                study("UndertowIT", UndertowIT.newest(), UndertowIT::checkCases),
                study("ReactorNettyServerIT", ReactorNettyServerIT.newest(), ReactorNettyServerIT::checkCases),
                study("GrpcServerIT", GrpcServerIT.newest(), GrpcServerIT::checkCases));
    }

    /** Tomcat's and Jetty's studies with a virtual thread per request, on the second JDK. */
    private static List<Workload> virtualThreadServers() {
        return List.of(study("TomcatVirtualIT", TomcatVirtualIT.expected(), null),
                study("JettyIT", JettyIT.newestVirtual(), null));
    }

    /** What an IT checks beyond ServerChecks, of the study's requests by trace id. */
    @FunctionalInterface
    private interface Cases {
        void check(Map<String, Requests.Request> byTrace, String what);
    }

    private static Workload study(String it, ServerChecks.Expected e, Cases cases) {
        return new Workload(it, ServerChecks.chaosProgram(e), run -> {
            Map<String, Requests.Request> byTrace = ServerChecks.check(e, run.stdout, run.requests, run.toString());
            if (cases != null) {
                cases.check(byTrace, run.toString());
            }
        });
    }

    // ---------------------------------------------------------------- the checks

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Jdk11#jvms")
    void theHandOversHoldTheirExactPathsUnderEverySeed(String java) throws Exception {
        CiSkip.unless(!java.equals(Jdk11.MISSING), "JDK 11 run skipped: " + Jdk11.MISSING);
        ChaosRuns runs = check(HANDOVERS + java);
        assertDelayedAt(runs, "wrapRunnable", "wrappedTaskEnter", "attachedTaskEnter", "attachTask", "waitEnter",
                "waitExit", "parkEnter", "parkExit", "onUnpark", "onComplete", "contextExit", "boundaryExit");
    }

    @Test
    void thePipelinesHoldTheirExactPathsUnderEverySeed() throws Exception {
        SamplesJar.need("io/hopscope/samples/pipeline/PipelineCommand.class");
        ChaosRuns runs = check(PIPELINES);
        assertDelayedAt(runs, "wrapRunnable", "wrappedTaskEnter", "captureIoContext", "ioContextEnter", "monoBlockEnter",
                "waitEnter", "waitExit", "onUnpark", "onComplete", "spanEnter", "spanExit", "boundaryExit", "serverExit");
    }

    @Test
    void theServersHoldTheirExactPathsUnderEverySeed() throws Exception {
        ChaosRuns runs = check(SERVERS);
        assertDelayedAt(runs, "wrapRunnable", "wrapServerTask", "wrappedTaskEnter", "serverEnter", "serverEnterUntilEnd",
                "serverEnterCall", "serverQueueEnter", "serverExit", "serverEnd", "serverEndWith", "waitEnter", "waitExit",
                "onUnpark", "onComplete");
    }

    @Test
    void theServersOnVirtualThreadsHoldTheirExactPathsUnderEverySeed() throws Exception {
        CiSkip.unless(Handovers.secondJvm() != null, "no second JDK (21+) in HOPSCOPE_JDK2");
        ChaosRuns runs = check(VIRTUAL_SERVERS);
        assertDelayedAt(runs, "wrappedTaskEnter", "virtualThreadSubmitted", "mountEnter", "mountExit",
                "virtualThreadEnded", "serverEnter", "serverExit", "serverEnd");
    }

    @Test
    void theKnownPathsPipelinesAndAServerHoldTheirExactPathsUnderACpuHog() throws Exception {
        check(UNDER_A_HOG);
    }

    /**
     * Checks each run of the JVM {@code key} with its workload's IT's checks, and fails with every
     * run that failed: each names its seed, its workload and how to run it again.
     */
    private static ChaosRuns check(String key) throws Exception {
        ChaosRuns runs = RUNS.get(key);
        Jvm jvm = JVMS.get(key);
        List<Workload> workloads = jvm.workloads;
        assertThat(runs.runs).hasSize(jvm.seeds.size() * workloads.size());
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < runs.runs.size(); i++) {
            ChaosRuns.Run run = runs.runs.get(i);
            Workload workload = workloads.get(i % workloads.size());
            try {
                assertThat(run.exitCode).as("exit code; output %s", run.stdout).isZero();
                workload.check.check(run);
            } catch (AssertionError e) {
                failures.add(workload.it + "'s workload under chaos seed " + run.seed + " (" + key + "; again: mvn -B -ntp"
                        + " -pl agent failsafe:integration-test failsafe:verify -Dit.test=ChaosIT -Dhopscope.chaos.seeds="
                        + run.seed + ", or -Dit.test=" + workload.it + " -Dhopscope.chaos.seed=" + run.seed + "): "
                        + e.getMessage());
            }
        }
        assertThat(failures).as("runs that failed of %s, seeds %s; stderr %s", key, jvm.seeds, runs.run.stderr).isEmpty();
        System.out.println("ChaosIT " + key + ": " + runs.runs.size() + " runs, seeds " + jvm.seeds + ", " + runs.millis
                + " ms, delays " + runs.delayed());
        return runs;
    }

    /** The chaos delayed (or yielded) before and after each of {@code hooks} in the JVM: it reached them. */
    private static void assertDelayedAt(ChaosRuns runs, String... hooks) {
        Set<String> points = new TreeSet<>();
        for (String hook : hooks) {
            points.add(hook + " before");
            points.add(hook + " after");
        }
        assertThat(runs.delayed().keySet()).as("hooks the chaos delayed at").containsAll(points);
    }
}
