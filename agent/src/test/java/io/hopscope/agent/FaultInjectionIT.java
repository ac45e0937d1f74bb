package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.CiSkip;
import io.hopscope.agent.testing.FaultAgent;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Jdk11;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.SamplesJar;
import io.hopscope.agent.testing.TwoAtATime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sample workloads (every scenario, both pipeline modes with each client, both JDK client
 * modes, the open loop) under the agent with {@link FaultAgent} after it, in mode all, where every
 * hook the Bridge calls throws, after, where each throws once the runtime has done its work (so
 * a request entered loses its token, a wait registered is never ended), and exits: each sample still exits 0
 * (it validates every response and exits 1 on a wrong one), and the agent counts the failures as
 * AgentError events per instrumentation and prints one stderr line per instrumentation, not one per
 * failure. In mode exits only the hooks given what a hook returned throw (an exit and its token).
 * The same with the test application's hand-overs, on the second JDK with virtual threads too, and on JDK 11,
 * with each server's study (the JDK's in the three modes, the others in the modes that reach their
 * hooks). Together the runs make every hook throw but two no workload here calls (BridgeFaultsTest
 * makes every hook throw, in process). Each run is a JVM of its own, all started two at a time when the
 * class starts ({@link TwoAtATime}); each test method checks one, and one what they reached together.
 */
class FaultInjectionIT {

    /** Hooks only a virtual thread calls, on JDK 21+ (the samples run on JDK 17). */
    private static final Set<String> VIRTUAL_THREAD_HOOKS = Set.of("attachedVirtualThreadEnter",
            "virtualThreadSubmitted", "mountEnter", "mountExit", "virtualThreadEnded");

    /**
     * Hooks no workload here calls (invokeAll/invokeAny; a boundary that takes a callback, as
     * async-http-client's and HttpAsyncClient 5's): BridgeFaultsTest makes them throw in process.
     */
    private static final Set<String> NO_WORKLOAD_CALLS = Set.of("wrapCallables", "wrapCallback");

    /**
     * Hooks a workload calls but no fault mode makes throw there: serverQueueExit's token comes from
     * serverQueueEnter, which gRPC, the one server calling it, gives the task wrapRunnable returned,
     * so in mode exits serverQueueEnter throws instead of returning one (and mode all and after throw
     * at serverQueueEnter already). BridgeFaultsTest makes it throw in process.
     */
    private static final Set<String> NO_FAULT_MODE_REACHES = Set.of("serverQueueExit");

    /** Every run of the class, queued at its start: no run measures time, so they run two at a time. */
    private static final TwoAtATime<String, FaultRun> STARTED = new TwoAtATime<>();
    /** The keys of the runs started, in order. */
    private static final List<String> KEYS = new ArrayList<>();
    private static Path faultAgent;
    /** The same, built for the JDK 11 runs. */
    private static Path faultAgent11;

    private static final String COUNT = "20";
    /** The three fault modes, each on its own JVM (FaultAgent). */
    private static final List<String> FAULT_MODES = List.of("all", "after", "exits");
    private static final Pattern FAILED = Pattern.compile("hopscope: instrumentation (\\S+) failed \\(.*");

    @BeforeAll
    static void samplesAreBuilt() throws IOException {
        SamplesJar.need("io/hopscope/samples/pipeline/PipelineCommand.class");
        faultAgent = FaultAgent.jar(AgentRun.workDir().resolve("fault-agent.jar"));
        faultAgent11 = FaultAgent.jar(AgentRun.workDir().resolve("fault-agent-jdk11.jar"), Jdk11.testClasses());
        String java = AgentRun.javaHere();
        for (String faults : FAULT_MODES) {
            for (Sample sample : Sample.values()) {
                start(sample + " " + faults, java, faults, sample.options, sample.program);
            }
        }
        // The JDK's server study: the hooks of a server whose request ends at an end hook.
        for (String faults : FAULT_MODES) {
            start(serverStudyKey(faults), java, faults, "jfr=%JFR%", SERVER_STUDY);
            for (ServerApp server : ServerApp.values()) {
                if (server.faults.contains(faults)) {
                    start(server.key(faults), java, faults, "jfr=%JFR%", server.program());
                }
            }
        }
        handoverRuns().forEach(arguments -> {
            String jvm = (String) arguments.get()[0];
            String faults = (String) arguments.get()[1];
            if (jvm.equals(Jdk11.MISSING)) {
                return; // handovers() says so
            }
            start(handoversKey(jvm, faults), jvm, faults, "jfr=%JFR%,requests=" + Handovers.BOUNDARY,
                    handoverProgram(jvm));
        });
    }

    /**
     * The runs together made every hook of every part throw: a new hook needs no new fault code, but a
     * run that reaches it. The virtual threads' hooks are reached only on the second JDK (which CI
     * has: {@link Handovers#secondJvm()} fails there without one); the exits (hooks given a token or a
     * wrapped task) only in mode exits. It reads every run the class started, whichever test methods
     * run, so it never depends on which of them JUnit was asked for; a run that failed fails it too.
     */
    @Test
    void theRunsTogetherMakeEveryHookThrow() throws Exception {
        assertThat(KEYS).as("runs started: each workload in each of its fault modes").hasSize(expectedRuns());
        Set<String> called = new TreeSet<>();
        for (String key : KEYS) {
            called.addAll(Files.readAllLines(STARTED.get(key).called()));
        }
        Set<String> hooks = FaultAgent.hookNames();
        assertThat(hooks).as("hooks left out below").containsAll(NO_WORKLOAD_CALLS).containsAll(NO_FAULT_MODE_REACHES);
        hooks.removeAll(NO_WORKLOAD_CALLS);
        hooks.removeAll(NO_FAULT_MODE_REACHES);
        if (Handovers.secondJvm() == null) {
            hooks.removeAll(VIRTUAL_THREAD_HOOKS);
        }
        assertThat(called).as("hooks the fault runs called").containsAll(hooks);
    }

    /**
     * The runs the workloads make, counted apart from the code that starts them: each sample, the JDK
     * server's study and the hand-overs in every fault mode, the other servers in theirs; the JDK 11's
     * hand-overs only where there is one.
     */
    private static int expectedRuns() {
        long handoverJvms = Jdk11.jvms().filter(java -> !java.equals(Jdk11.MISSING)).count();
        return FAULT_MODES.size() * (Sample.values().length + 1 + (int) handoverJvms) + ServerApp.runs();
    }

    /**
     * The samples run: the agent's options, the sample's arguments, and the instrumentations whose
     * hooks the sample surely calls, so that each must report failures (servers: the sample's own
     * server, Jetty, answering every call but the known path's, which makes none).
     */
    enum Sample {
        PIPELINE_OKHTTP_SYNC("jfr=%JFR%", List.of("pipeline", "--mode", "sync", "--http-client", "okhttp",
                "--parallel", "2", "--count", COUNT), "boundaries", "spans", "servers"),
        PIPELINE_NETTY_SYNC_OVER_ASYNC("jfr=%JFR%", List.of("pipeline", "--mode", "sync-over-async", "--http-client",
                "netty", "--parallel", "2", "--count", COUNT), "boundaries", "spans", "executors", "context", "waits",
                "servers"),
        JDK_HTTP_SYNC("jfr=%JFR%", List.of("jdk-http", "--mode", "sync", "--producers", "1", "--io-threads", "2",
                "--count", COUNT), "boundaries", "executors", "context", "waits", "servers"),
        KNOWN_PATH("jfr=%JFR%,requests=io.hopscope.samples.knownpath.KnownPath#request", List.of("known-path",
                "--count", "3", "--pause-ms", "10"), "boundaries", "executors", "waits"),
        PIPELINE_OKHTTP_SYNC_OVER_ASYNC("jfr=%JFR%", List.of("pipeline", "--mode", "sync-over-async", "--http-client",
                "okhttp", "--parallel", "2", "--count", COUNT), "boundaries", "spans", "executors", "waits", "servers"),
        PIPELINE_NETTY_SYNC("jfr=%JFR%", List.of("pipeline", "--mode", "sync", "--http-client", "netty", "--parallel",
                "2", "--count", COUNT), "boundaries", "spans", "executors", "context", "waits", "servers"),
        JDK_HTTP_ASYNC("jfr=%JFR%", List.of("jdk-http", "--mode", "async", "--producers", "1", "--in-flight", "4",
                "--io-threads", "2", "--count", COUNT), "boundaries", "executors", "context", "waits", "servers"),
        // One second at 20 a second: 20 requests, each failing in every instrumentation named.
        OPEN_LOOP("jfr=%JFR%,requests=io.hopscope.samples.openloop.OpenLoopCommand#exchange", List.of("open-loop",
                "--mode", "sync-over-async", "--rps", "20", "--duration", "1", "--delay-ms", "20"),
                "boundaries", "executors", "context", "waits", "servers");

        final String options;
        final List<String> program;
        final String[] hit;

        Sample(String options, List<String> sampleArgs, String... hit) {
            this.options = options;
            this.program = new ArrayList<>(List.of("-jar", SamplesJar.path().toString()));
            this.program.addAll(sampleArgs);
            this.hit = hit;
        }
    }

    static Stream<Arguments> sampleRuns() {
        return FAULT_MODES.stream().flatMap(f -> Stream.of(Sample.values()).map(s -> Arguments.of(s, f)));
    }

    @ParameterizedTest(name = "{0}, faults {1}")
    @MethodSource("sampleRuns")
    void sample(Sample sample, String faults) throws Exception {
        check(sample + " " + faults, faults, sample.program, sample.hit);
    }

    /**
     * The JDK server's study (a pool of its own, so its dispatcher hands each exchange over, and a
     * request that ends at the server's end hook), every response still right: the server hooks
     * the samples' Jetty does not reach.
     */
    @ParameterizedTest
    @MethodSource("faultModes")
    void serverStudy(String faults) throws Exception {
        check(serverStudyKey(faults), faults, SERVER_STUDY, "servers");
    }

    /**
     * Each other server's study, on the newest release of its range, in the fault modes that reach
     * its hooks (all: every hook throws; after: the hooks of an open exchange, which mode all never
     * opens, reactor-netty's failure and resume, gRPC's end; exits: the exits given a token, which
     * mode all never reaches): a server hook's failure must not break the server, and each is made
     * to throw.
     */
    enum ServerApp {
        UNDERTOW("UndertowApp", List.of("all"), "undertow-2.4.4.Final"),
        REACTOR_NETTY("ReactorNettyServerApp", List.of("all", "after"), "reactor-netty-server-1.3.7"),
        WEBFLUX("WebFluxApp", List.of("all"), "spring-webflux-7.0.10"),
        SPRING_MVC("SpringMvcApp", List.of("all", "exits"), "tomcat-11.0.27", "spring-webmvc-7.0.10"),
        JAX_RS("JaxRsApp", List.of("all"), "tomcat-11.0.27", "jaxrs-jersey-4.0.2"),
        GRPC("GrpcServerApp", List.of("all", "after", "exits"), "grpc-server-1.85.1");

        final String app;
        final List<String> faults;
        final List<String> testlibs;

        ServerApp(String app, List<String> faults, String... testlibs) {
            this.app = app;
            this.faults = faults;
            this.testlibs = List.of(testlibs);
        }

        static int runs() {
            return Stream.of(values()).mapToInt(s -> s.faults.size()).sum();
        }

        String key(String mode) {
            return app + " " + mode;
        }

        List<String> program() {
            StringBuilder classPath = new StringBuilder(System.getProperty("hopscope.test.classes"));
            for (String module : testlibs) {
                classPath.append(java.io.File.pathSeparator).append(LibraryVersions.classPath(module));
            }
            return List.of("-cp", classPath.toString(), "io.hopscope.testapps.servers." + app);
        }
    }

    static Stream<Arguments> serverRuns() {
        return Stream.of(ServerApp.values()).flatMap(s -> s.faults.stream().map(f -> Arguments.of(s, f)));
    }

    @ParameterizedTest(name = "{0}, faults {1}")
    @MethodSource("serverRuns")
    void server(ServerApp server, String faults) throws Exception {
        check(server.key(faults), faults, server.program(), "servers");
    }

    static Stream<String> faultModes() {
        return FAULT_MODES.stream();
    }

    private static final List<String> SERVER_STUDY = List.of("-cp", System.getProperty("hopscope.test.classes"),
            "io.hopscope.testapps.servers.JdkHttpServerApp");

    private static String serverStudyKey(String faults) {
        return "server study " + faults;
    }

    /**
     * The test application's hand-overs (fork/join, submit, invokeAll, scheduling, threads; on the
     * second JDK virtual threads too), on each JVM: the hooks the samples do not reach.
     */
    @ParameterizedTest
    @MethodSource("handoverRuns")
    void handovers(String java, String faults) throws Exception {
        CiSkip.unless(!java.equals(Jdk11.MISSING), Jdk11.MISSING);
        check(handoversKey(java, faults), faults, handoverProgram(java), "boundaries", "executors");
    }

    static Stream<Arguments> handoverRuns() {
        return Jdk11.jvms().flatMap(java -> FAULT_MODES.stream().map(f -> Arguments.of(java, f)));
    }

    /** Whether {@code java} is the second JDK's (virtual threads), not this JVM's or JDK 11's. */
    private static boolean onSecondJdk(String java) {
        return java.equals(Handovers.secondJvm());
    }

    private static String handoversKey(String java, String faults) {
        return "handovers on " + java + " " + faults;
    }

    private static List<String> handoverProgram(String java) {
        List<String> program = new ArrayList<>(List.of("-cp", System.getProperty("hopscope.test.classes"),
                "io.hopscope.testapps.HandoverApp"));
        for (String scenario : List.of("fork", "forkInline", "submit", "submitRunnable", "submitCallable", "execute",
                "invoke", "supplyAsync", "runAsync", "stages", "schedule", "fixedRate", "fixedDelay", "newThread")) {
            program.add(scenario + (scenario.equals("forkInline") || scenario.equals("invoke") ? ":parked" : ":before"));
        }
        if (onSecondJdk(java)) {
            program.addAll(List.of("virtualPerTask:before", "virtualPerTask:parked", "onVirtual-virtualPerTask:parked",
                    "virtual:parked"));
        }
        return program;
    }

    /** Queues the program's run on {@code java} under the fault agent in mode {@code faults}. */
    private static void start(String key, String java, String faults, String options, List<String> program) {
        KEYS.add(key);
        STARTED.start(key, () -> {
            Path called = Files.createTempFile(AgentRun.workDir(), "called-", ".txt");
            List<String> args = new ArrayList<>(List.of("-javaagent:" + (Jdk11.is(java) ? faultAgent11 : faultAgent)
                    + "=" + faults + "," + called));
            args.addAll(program);
            return new FaultRun(AgentRun.run(java, options, args), called);
        });
    }

    /** A run under the fault agent and the file where it wrote the hooks that threw. */
    private record FaultRun(AgentRun run, Path called) {
    }

    /**
     * Checks the run started under {@code key} (the program with faults on): exit 0; every hopscope
     * line on stderr is a failure report, at most one per instrumentation; each of {@code hit} has
     * AgentError events, the last with a count above 1 (failures are counted, not only reported once).
     */
    private static void check(String key, String faults, List<String> program, String... hit) throws Exception {
        if (faults.equals("exits")) {
            // Only the exits throw: of the instrumentations, surely the boundaries' (every request's exit).
            hit = new String[] {"boundaries"};
        }
        FaultRun faultRun = STARTED.get(key);
        AgentRun run = faultRun.run();
        assertThat(run.exitCode).as("exit code of %s; stdout %s; stderr %s", program, run.stdout, run.stderr)
                .isZero();

        Map<String, Integer> linesPerInstrumentation = new TreeMap<>();
        for (String line : run.agentLines()) {
            Matcher m = FAILED.matcher(line);
            assertThat(m.matches()).as("stderr line %s", line).isTrue();
            assertThat(line).contains(FaultAgent.FAULT);
            linesPerInstrumentation.merge(m.group(1), 1, Integer::sum);
        }
        assertThat(linesPerInstrumentation.values()).as("stderr lines per instrumentation: %s", run.stderr)
                .allMatch(n -> n == 1);

        Map<String, Long> counts = new TreeMap<>();
        for (RecordedEvent e : run.events()) {
            if (e.getEventType().getName().equals("hopscope.AgentError")) {
                // A hook's failure is its instrumentation's, never a task of the agent's own.
                assertThat(e.getString("task")).as("task of %s", e).isEmpty();
                counts.merge(e.getString("instrumentation"), e.getLong("count"), Math::max);
            }
        }
        assertThat(counts).as("AgentError counts of %s", program).containsKeys(hit);
        for (String instrumentation : hit) {
            assertThat(counts.get(instrumentation)).as("AgentError count of %s in %s", instrumentation, program)
                    .isGreaterThan(1);
        }
        assertThat(linesPerInstrumentation.keySet()).as("instrumentations on stderr").isEqualTo(counts.keySet());
        System.out.println("FaultInjectionIT " + key + ": " + counts);
    }
}
