package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
        Process jvm = sample(log, "pipeline", "--http-client", "netty", "--mode", "sync-over-async", "--duration", "60");
        try {
            Thread.sleep(3000); // the sample's server and clients up
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

            Thread.sleep(5000);
            Path saved = dir.resolve("saved.jfr");
            Cli stop = Cli.run("attach", pid, "--stop", "-o", saved.toString());
            assertThat(stop.exitCode()).as(stop.err()).isZero();
            assertThat(stop.out()).contains("saved PID " + pid + "'s recording to " + saved);
            assertThat(jvm.isAlive()).as("the target runs on after --stop").isTrue();
            // The first destination was never written: stopping wrote FILE instead.
            assertThat(first).doesNotExist();
            assertOneLine(Cli.run("attach", pid, "--stop", "-o", dir.resolve("twice.jfr").toString()),
                    "has no running recording");

            Cli report = Cli.run("report", saved.toString(), "--format", "json");
            assertThat(report.exitCode()).as(report.err()).isZero();
            List<JsonNode> requests = new ArrayList<>();
            new ObjectMapper().readTree(report.out()).get("requests").forEach(requests::add);
            assertThat(requests).hasSizeGreaterThan(100);
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
            assertOneLine(Cli.run("attach", Long.toString(refusing.pid())), "refuses attach (-XX:+DisableAttachMechanism)");
        } finally {
            refusing.destroyForcibly();
        }

        Cli usage = Cli.run("attach", "1", "--stop");
        assertThat(usage.exitCode()).isEqualTo(2);
        assertThat(usage.err()).contains("--stop needs -o FILE").contains("Usage: hopscope attach");
    }

    private Process sample(Path log, String... args) throws Exception {
        List<String> cmd = Paths.shortJvm(Paths.java());
        cmd.addAll(List.of("-jar", samples.toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
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
