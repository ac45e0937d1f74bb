package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.RepositoryEvents;
import io.hopscope.analyzer.testing.SampleServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Issue 21's attach: the agent loaded into a sample JVM started without it, its recording saved
 * with {@code --stop}; and the PIDs attach must refuse, each in one line with exit 2.
 */
@Isolated("its hop counts follow the timing of an attach")
class AttachCommandIT {

    static Path samples;
    /** The calls the attached agent must have recorded before the test stops it. */
    private static final int REQUESTS = 101;

    @TempDir
    Path dir;

    @BeforeAll
    static void needs() {
        Paths.needBuiltJars();
        samples = Paths.samplesJar();
    }

    @Test
    void attachedLateThenStoppedGivesRequestsWithHops() throws Exception {
        Path log = dir.resolve("sample.log");
        Path repository = dir.resolve("repository");
        // The repository JFR writes to once the agent records: the test reads it to wait for requests.
        Process jvm = sample(log, "-XX:FlightRecorderOptions=repository=" + repository, "-jar", samples.toString(),
                "pipeline", "--http-client", "netty", "--mode", "sync-over-async", "--duration", "600");
        try {
            // The sample's calls have begun once Reactor Netty's event loop runs: it starts with the first
            // connection, after reactor-pool's pool was made (which the agent then cannot instrument).
            awaitThread(jvm, "reactor-http-ep", log);
            String pid = Long.toString(jvm.pid());
            Cli none = Cli.run("attach", pid, "--stop", "-o", dir.resolve("none.jfr").toString());
            assertOneLine(none, "no hopscope agent in PID " + pid);

            Path first = dir.resolve("first.jfr");
            Cli attach = Cli.run("attach", pid, "jfr=" + first);
            assertThat(attach.exitCode()).as(attach.err()).isZero();
            assertThat(attach.out()).contains("recording PID " + pid + " to " + first)
                    .contains("reactor-pool cannot apply late");
            Cli again = Cli.run("attach", pid);
            assertThat(again.exitCode()).as(again.err()).isZero();
            assertThat(again.out().strip()).startsWith("attach: the hopscope agent is already recording in PID " + pid)
                    .contains(first.toString()).doesNotContain("\n");

            // The calls the report must have: recorded, and flushed to the repository. Their server's requests
            // are recorded too where Jetty's classes were loaded after the attach, as timing has it: not counted.
            RepositoryEvents.await(repository, "hopscope.Request", e -> !SampleServer.BOUNDARY.equals(e.getString("boundary")),
                    REQUESTS, 240, RepositoryEvents.log(log));
            Path saved = dir.resolve("saved.jfr");
            Cli stop = Cli.run("attach", pid, "--stop", "-o", saved.toString());
            assertThat(stop.exitCode()).as(stop.err()).isZero();
            assertThat(stop.out()).contains("saved PID " + pid + "'s recording to " + saved);
            assertThat(jvm.isAlive()).as("the target runs on after --stop").isTrue();
            // The first destination was never written: stopping wrote FILE instead.
            assertThat(first).doesNotExist();
            assertOneLine(Cli.run("attach", pid, "--stop", "-o", dir.resolve("twice.jfr").toString()),
                    "has no running recording");

            Cli report = Cli.run("report", saved.toString(), "--format", "json", "--top", "all");
            assertThat(report.exitCode()).as(report.err()).isZero();
            List<JsonNode> requests = SampleServer.calls(new ObjectMapper().readTree(report.out()).get("requests"));
            assertThat(requests).hasSizeGreaterThanOrEqualTo(REQUESTS);
            // Sync over async: a handoff to the event loop and the wake of the caller, attached late.
            long withHops = requests.stream().filter(r -> r.get("hops").asInt() >= 2).count();
            assertThat(withHops).as("requests with 2+ hops").isGreaterThan(requests.size() * 9L / 10);
        } finally {
            jvm.destroyForcibly();
        }
    }

    @Test
    void refusesWhatIsNotARunningJvmOfThisUserInOneLine() throws Exception {
        assertOneLine(Cli.run("attach", "abc"), "PID must be a process id (a number), got 'abc'");

        Process ended = new ProcessBuilder("true").start();
        assertThat(ended.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertOneLine(Cli.run("attach", Long.toString(ended.pid())), "no process with PID " + ended.pid());

        Process sleep = new ProcessBuilder("sleep", "30").start();
        try {
            assertOneLine(Cli.run("attach", Long.toString(sleep.pid())), "PID " + sleep.pid() + " (")
                    .contains("is not a JVM");
            // Refused before the attach handshake, whose SIGQUIT would have ended it.
            assertThat(sleep.isAlive()).isTrue();
        } finally {
            sleep.destroyForcibly();
        }

        Process refusing = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+DisableAttachMechanism", "-jar", samples.toString(), "known-path", "--count", "600", "--pause-ms", "50")
                .redirectErrorStream(true).redirectOutput(dir.resolve("refusing.log").toFile()).start();
        try {
            // A JVM once its launcher has loaded libjvm.so: before that, "is not a JVM" is the right answer.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!AttachTarget.isJvm(refusing.pid()) && refusing.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(AttachTarget.isJvm(refusing.pid())).as("PID %s became a JVM; its output: %s", refusing.pid(),
                    dir.resolve("refusing.log")).isTrue();
            assertOneLine(Cli.run("attach", Long.toString(refusing.pid())), "refuses attach (-XX:+DisableAttachMechanism)");
        } finally {
            refusing.destroyForcibly();
        }

        Cli usage = Cli.run("attach", "1", "--stop");
        assertThat(usage.exitCode()).isEqualTo(2);
        assertThat(usage.err()).contains("--stop needs -o FILE").contains("Usage: hopscope attach");
    }

    private static Process sample(Path log, String... args) throws Exception {
        List<String> cmd = Paths.shortJvm(Paths.java());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /**
     * Waits until {@code jvm} has a thread whose name starts with {@code prefix} (its kernel name, which
     * the JVM sets to the Java name cut to 15 bytes): read from /proc, without attaching to it.
     */
    private static void awaitThread(Process jvm, String prefix, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(jvm.pid()), "task"))) {
                if (tasks.anyMatch(t -> comm(t).startsWith(prefix))) {
                    return;
                }
            }
            assertThat(jvm.isAlive()).as("the sample runs: %s", RepositoryEvents.log(log).get()).isTrue();
            assertThat(System.nanoTime()).as("a thread %s* within 120 s: %s", prefix, RepositoryEvents.log(log).get())
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static String comm(Path task) {
        try {
            return Files.readString(task.resolve("comm")).strip();
        } catch (IOException e) {
            return ""; // the thread ended
        }
    }

    /** Exit 2, nothing on stdout, one "hopscope: attach: ..." line on stderr containing expected; returns that line. */
    static org.assertj.core.api.AbstractStringAssert<?> assertOneLine(Cli r, String expected) {
        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).doesNotContain("\n").doesNotContain("Exception").startsWith("hopscope: ")
                .contains(expected);
        return assertThat(r.err().strip());
    }
}
