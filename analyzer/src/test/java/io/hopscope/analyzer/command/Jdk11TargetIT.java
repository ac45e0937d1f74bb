package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * attach and live against a JVM on JDK 11 (HOPSCOPE_JDK11), the oldest the agent runs on: attach
 * loads the agent and saves its recording; live, which streams JFR events (JDK 14+), refuses in one
 * line with exit 2, before loading anything.
 */
class Jdk11TargetIT {

    /**
     * A JDK 11 application of its own (the samples are built for 17): executor hand-overs until stdin
     * closes, a line after each, by which the test counts them (JDK 11's JFR flushes nothing before a
     * chunk ends: its recording cannot be read as it grows).
     */
    private static final String TARGET = String.join("\n",
            "import java.util.concurrent.*;",
            "public class Target {",
            "  public static void main(String[] args) throws Exception {",
            "    ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, \"target-pool\"));",
            "    Thread reader = new Thread(() -> { try { System.in.read(); } catch (Exception e) { } System.exit(0); });",
            "    reader.setDaemon(true);",
            "    reader.start();",
            "    System.out.println(\"ready\");",
            "    System.out.flush();",
            "    while (true) { request(pool); System.out.println(\"request\"); Thread.sleep(5); }",
            "  }",
            "  static String request(ExecutorService pool) throws Exception {",
            "    return pool.submit(() -> Thread.currentThread().getName()).get();",
            "  }",
            "}");

    /** The requests the recording must have when the test stops it. */
    private static final int REQUESTS = 50;

    @TempDir
    Path dir;

    @Test
    void attachRecordsAJdk11JvmAndLiveRefusesItInOneLine() throws Exception {
        Paths.needBuiltJars();
        Path java = Paths.jdk11Java();
        Path source = dir.resolve("Target.java");
        Files.writeString(source, TARGET);
        int compiled = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "11", "-d", dir.toString(),
                source.toString());
        assertThat(compiled).isZero();
        Process target = new ProcessBuilder(java.toString(), "-cp", dir.toString(), "Target")
                .redirectError(dir.resolve("target.err").toFile()).start();
        try {
            LiveCommandIT.Lines out = new LiveCommandIT.Lines(target);
            assertThat(out.await(l -> true, 1, 60)).containsExactly("ready");
            String pid = Long.toString(target.pid());

            Cli live = Cli.run("live", pid);
            AttachCommandIT.assertOneLine(live, "live: process " + pid + " runs JDK 11.")
                    .contains("whose JFR cannot stream events (JDK 14+); record it instead: hopscope attach " + pid);
            // Refused before the agent was loaded: there is none to stop.
            AttachCommandIT.assertOneLine(Cli.run("attach", pid, "--stop", "-o", dir.resolve("none.jfr").toString()),
                    "no hopscope agent in PID " + pid);

            Path first = dir.resolve("first.jfr");
            Cli attach = Cli.run("attach", pid, "jfr=" + first + ",requests=Target#request");
            assertThat(attach.exitCode()).as(attach.err()).isZero();
            assertThat(attach.out()).contains("recording PID " + pid + " to " + first);
            // Requests that ended after attach returned: all but the one under way then began once the agent
            // was installed, so the recording has them.
            int before = out.all().size();
            out.await(l -> true, before + REQUESTS + 1, 120);
            Path saved = dir.resolve("saved.jfr");
            Cli stop = Cli.run("attach", pid, "--stop", "-o", saved.toString());
            assertThat(stop.exitCode()).as(stop.err()).isZero();
            assertThat(target.isAlive()).as("the target runs on after --stop").isTrue();

            Cli report = Cli.run("report", saved.toString(), "--format", "json", "--top", "all");
            assertThat(report.exitCode()).as(report.err()).isZero();
            List<JsonNode> requests = new ArrayList<>();
            new ObjectMapper().readTree(report.out()).get("requests").forEach(requests::add);
            assertThat(requests).hasSizeGreaterThanOrEqualTo(REQUESTS);
            // Each request hands its task to the pool and is woken (or finds the result) back.
            long withHops = requests.stream().filter(r -> r.get("hops").asInt() >= 2).count();
            assertThat(withHops).as("requests with 2+ hops").isGreaterThan(requests.size() * 9L / 10);
        } finally {
            target.getOutputStream().close();
            target.destroyForcibly();
        }
        assertThat(Files.readString(dir.resolve("target.err"))).as("the target's stderr").doesNotContain("Exception");
    }
}
