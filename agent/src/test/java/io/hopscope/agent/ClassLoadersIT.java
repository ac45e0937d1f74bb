package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.BootJar;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.PipelineChecks;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import io.hopscope.agent.testing.TwoAtATime;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent where the application and its libraries are not on the class path, on both JDKs: a
 * Spring Boot jar launched by Spring Boot's own JarLauncher (libraries nested in BOOT-INF/lib),
 * class loaders the application makes itself (its classes in one whose parent is the system loader;
 * its classes and all its libraries, Reactor and azure-core among them, in one whose parent is the
 * platform loader), and an application with its own Byte Buddy and Jackson in a loader of its own.
 * Each records what the class path does (PipelineIT's checks) and the application's own output is
 * right. Starting a JVM with the agent costs far more than the requests, so the cases share two
 * JVMs a JDK: the Spring Boot jar, and one whose LoaderApp makes the other loaders; all of them
 * are queued when the class starts and run two at a time.
 */
class ClassLoadersIT {

    /** Requests per pipeline run. */
    private static final String COUNT = "20";
    private static final int OWN_LIBRARY_CALLS = 12;
    private static final String OPTIONS = "jfr=%JFR%,spanthreshold=0";
    private static final String SEND = "com.azure.core.http.HttpPipeline#send";
    private static final String SEND_SYNC = "com.azure.core.http.HttpPipeline#sendSync";
    private static final String OKHTTP_EXECUTE = "okhttp3.Call#execute";
    /** The own-libraries application's server, the JDK's, in process. */
    private static final String JDK_SERVER = "com.sun.net.httpserver.HttpHandler#handle";

    private static Path samplesBootJar;
    /** The class's JVM runs, queued when it starts: none measures time, so two run at a time. */
    private static final TwoAtATime<String, AgentRun> RUNS = new TwoAtATime<>();

    @BeforeAll
    static void buildTheApplication() throws Exception {
        SamplesJar.needClassesAndLibraries();
        Path testClasses = Path.of(System.getProperty("hopscope.test.classes"));
        samplesBootJar = new BootJar("io.hopscope.testapps.LoaderApp")
                .classes(SamplesJar.classes(), path -> true)
                .classes(testClasses, path -> path.startsWith("io/hopscope/testapps/LoaderApp"))
                .libraries(SamplesJar.libraries())
                .write(AgentRun.workDir().resolve("samples-boot.jar"));
        Handovers.jvms().forEach(java -> {
            RUNS.start("springBootJar " + java, () -> springBootJarRun(java));
            RUNS.start("classLoaders " + java, () -> classLoadersRun(java));
        });
    }

    private static AgentRun springBootJarRun(String java) throws Exception {
        return AgentRun.run(java, OPTIONS, List.of("-jar", samplesBootJar.toString(),
                "own", "pipeline", "--mode", "sync-over-async", "--http-client", "netty", "--parallel", "2", "--count", COUNT,
                "--next", "own", "pipeline", "--mode", "sync", "--http-client", "okhttp", "--parallel", "2", "--count", COUNT));
    }

    /** The pipeline sample from a Spring Boot jar: Netty send().block() and OkHttp sendSync. */
    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void springBootJar(String java) throws Exception {
        AgentRun run = RUNS.get("springBootJar " + java);
        String launched = "org.springframework.boot.loader.launch.LaunchedClassLoader";
        assertThat(run.stdout).as(run.stderr)
                .contains("Mono from " + launched + ", HttpPipeline from " + launched + ", exit 0")
                .doesNotContain("exit 1", "exit 2");
        Map<String, List<Requests.Request>> byBoundary = byBoundary(run, 2 * Integer.parseInt(COUNT));
        assertThat(byBoundary.keySet()).containsExactlyInAnyOrder(SEND, SEND_SYNC, PipelineChecks.SAMPLE_SERVER);
        checkBothModes(byBoundary);
    }

    /**
     * Class loaders the application makes: its classes in one whose parent is the system loader
     * (the libraries on the class path, its policies in the child), then its classes and every
     * library in one whose parent is the platform loader, so that the same JVM has two copies of
     * Reactor, azure-core, Netty and OkHttp; then, in a third loader, an application with Byte Buddy
     * and Jackson of its own, other versions than the agent's (and than the samples' Jackson on the
     * class path): its Byte Buddy generates an OkHttp interceptor per call (with the JDK's class file
     * API on JDK 24+), its Jackson writes and reads the JSON; every call is a request with the
     * generated interceptor as a span, and the generated classes' loaders can be collected.
     */
    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void classLoadersTheApplicationMakes(String java) throws Exception {
        AgentRun run = RUNS.get("classLoaders " + java);
        String calls = Integer.toString(OWN_LIBRARY_CALLS);
        String jackson = System.getProperty("hopscope.app.jackson.version");
        assertThat(run.stdout).as(run.stderr)
                .contains("okhttp --parallel 2 --count " + COUNT + ": Mono from system, HttpPipeline from system, exit 0")
                .contains("netty --parallel 2 --count " + COUNT + ": Mono from java.net.URLClassLoader app-platform,"
                        + " HttpPipeline from java.net.URLClassLoader app-platform, exit 0")
                .contains("io.hopscope.testapps.OwnLibrariesApp " + calls + ": exit 0")
                .contains("jackson " + jackson + " from ")
                .containsPattern("jackson-databind-" + jackson + "\\.jar")
                .containsPattern("byte-buddy from .*byte-buddy-" + System.getProperty("hopscope.app.bytebuddy.version")
                        + "\\.jar")
                .contains("responses ok: " + calls + " of " + calls)
                .contains("json round trip: {\"a\":[1,2,{\"b\":\"c\"}]}")
                // None of them, or (JDK 17, without the agent too) the last one: a loader kept
                // by the agent's type pool would be all of them.
                .containsPattern("generated class loaders alive after gc: [01] of " + calls);
        Map<String, List<Requests.Request>> byBoundary = byBoundary(run, 2 * Integer.parseInt(COUNT) + OWN_LIBRARY_CALLS);
        assertThat(byBoundary.keySet()).containsExactlyInAnyOrder(SEND, SEND_SYNC, OKHTTP_EXECUTE,
                PipelineChecks.SAMPLE_SERVER, JDK_SERVER);
        checkBothModes(byBoundary);
        checkOwnLibraries(byBoundary.get(OKHTTP_EXECUTE), byBoundary.get(JDK_SERVER));
    }

    /**
     * The LoaderApp run: the samples in a loader under the system loader, then with all their
     * libraries in one under the platform loader, then the application with its own libraries.
     */
    private static AgentRun classLoadersRun(String java) throws Exception {
        String libraries = SamplesJar.libraries().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        String testClasses = System.getProperty("hopscope.test.classes");
        String ownApplication = Stream.concat(Stream.of(Path.of(testClasses)), ownLibraries().stream())
                .map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        String samples = SamplesJar.classes().toString();
        String calls = Integer.toString(OWN_LIBRARY_CALLS);
        return AgentRun.run(java, OPTIONS, List.of("-cp", testClasses + File.pathSeparator + libraries,
                "io.hopscope.testapps.LoaderApp",
                "system:" + samples, "pipeline", "--mode", "sync", "--http-client", "okhttp", "--parallel", "2",
                "--count", COUNT,
                "--next", "platform:" + samples + File.pathSeparator + libraries, "pipeline", "--mode", "sync-over-async",
                "--http-client", "netty", "--parallel", "2", "--count", COUNT,
                "--next", "platform:" + ownApplication, "--main", "io.hopscope.testapps.OwnLibrariesApp", calls));
    }

    /** The run's requests, at least {@code atLeast}, each with its Request event, by boundary. */
    private static Map<String, List<Requests.Request>> byBoundary(AgentRun run, int atLeast) throws Exception {
        Map<Long, Requests.Request> requests = run.cleanRequests(atLeast);
        assertThat(requests.values()).allMatch(r -> r.request != null);
        return requests.values().stream().collect(Collectors.groupingBy(r -> r.request.getString("boundary")));
    }

    /**
     * Each pipeline group's requests, told apart by their boundary, recorded as on the class path,
     * and the sample server's (Jetty, in the same loaders as the pipelines) answering each of them.
     */
    private static void checkBothModes(Map<String, List<Requests.Request>> byBoundary) {
        PipelineChecks.nettySyncOverAsync(byBoundary.get(SEND));
        PipelineChecks.okHttpSync(byBoundary.get(SEND_SYNC));
        assertThat(byBoundary.get(SEND).size()).isGreaterThanOrEqualTo(Integer.parseInt(COUNT));
        assertThat(byBoundary.get(SEND_SYNC).size()).isGreaterThanOrEqualTo(Integer.parseInt(COUNT));
        PipelineChecks.sampleServer(byBoundary.get(PipelineChecks.SAMPLE_SERVER), 2 * Integer.parseInt(COUNT));
    }

    /**
     * One request a call of the own-libraries application, on its thread, with its generated span;
     * and one its server (the JDK's) answered, named by path, its query cut.
     */
    private static void checkOwnLibraries(List<Requests.Request> requests, List<Requests.Request> served) {
        assertThat(served).hasSize(OWN_LIBRARY_CALLS).allSatisfy(r -> {
            r.assertOk(JDK_SERVER);
            assertThat(r.request.getString("kind")).isEqualTo("server");
            assertThat(r.request.getString("name")).isEqualTo("GET /greeting");
            assertThat(r.request.getString("url")).isEqualTo("/greeting");
            assertThat(r.request.getInt("statusCode")).isEqualTo(200);
        });
        assertThat(requests).hasSize(OWN_LIBRARY_CALLS);
        for (Requests.Request r : requests) {
            r.assertOk(OKHTTP_EXECUTE);
            assertThat(r.request.getString("name")).isEqualTo("GET 127.0.0.1/greeting");
            assertThat(r.request.getInt("statusCode")).isEqualTo(200);
            assertThat(r.hops).as("hops of request %d", r.id).isEmpty();
            assertThat(r.threads()).as("threads of request %d", r.id).hasSize(1);
            assertThat(r.spans).extracting(s -> s.getString("name"))
                    .contains("io.hopscope.testapps.GeneratedTagInterceptor");
        }
    }

    /** OkHttp (with okio and Kotlin) and the application's own Byte Buddy and Jackson. */
    private static List<Path> ownLibraries() throws Exception {
        List<Path> jars = new ArrayList<>(List.of(jarOf(okhttp3.OkHttpClient.class), jarOf(okio.Buffer.class),
                jarOf(kotlin.Unit.class)));
        try (Stream<Path> appLibs = Files.list(Path.of(System.getProperty("hopscope.app.libs")))) {
            jars.addAll(appLibs.filter(p -> p.toString().endsWith(".jar")).sorted().toList());
        }
        return jars;
    }

    private static Path jarOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
