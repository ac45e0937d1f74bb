package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Cli;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code live}'s misuse: each bad PID gets one line and exit 2, before anything is attached or
 * signalled (the run itself: LiveCommandIT).
 */
class LiveCliTest {

    @Test
    void aPidThatIsNotANumberIsOneLine() {
        Cli r = Cli.run("live", "abc");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).isEqualTo("hopscope: live: PID must be a process id (a number), got 'abc'");
    }

    @Test
    void anAgentOptionThatIsNotKeyValueIsOneLine() {
        Cli r = Cli.run("live", Long.toString(ProcessHandle.current().pid()), "cputime=true,com.example.Api#call");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("hopscope: live: agent option 'com.example.Api#call' is not key=value"
                + " (for example requests=com.example.Api#call; all of them: docs/agent.md)");
    }

    @Test
    void anAgentOptionTheAgentWouldRefuseIsOneLine() {
        Cli r = Cli.run("live", Long.toString(ProcessHandle.current().pid()), "spans=half");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("hopscope: live: agent option spans= takes all, none or 1/N with N >= 1,"
                + " not 'half' (for example requests=com.example.Api#call; all of them: docs/agent.md)");
    }

    @Test
    void anUnknownAgentOptionIsOneLine() {
        Cli r = Cli.run("live", Long.toString(ProcessHandle.current().pid()), "colour=red");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("hopscope: live: agent option 'colour' is unknown"
                + " (for example requests=com.example.Api#call; all of them: docs/agent.md)");
    }

    @Test
    void aGonePidIsOneLine() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        Cli r = Cli.run("live", Long.toString(p.pid()));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("hopscope: live: no process with PID " + p.pid()
                + " (it has ended, or never was)");
    }

    @Test
    void aProcessThatIsNotAJvmIsOneLineAndIsLeftAlone() throws Exception {
        // The attach API would SIGQUIT it, and sleep dies of that: live must refuse before.
        Process sleep = new ProcessBuilder("sleep", "30").start();
        try {
            Cli r = Cli.run("live", Long.toString(sleep.pid()));
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err().strip()).hasLineCount(1)
                    .startsWith("hopscope: live: PID " + sleep.pid() + " (")
                    .endsWith(") is not a JVM");
            Thread.sleep(500);
            assertThat(sleep.isAlive()).isTrue();
        } finally {
            sleep.destroyForcibly();
        }
    }

    @Test
    void thisProcessIsOneLine() {
        // The test's JVM runs the command in-process: live refuses to watch itself.
        Cli r = Cli.run("live", Long.toString(ProcessHandle.current().pid()));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).hasLineCount(1)
                .startsWith("hopscope: live: PID " + ProcessHandle.current().pid() + " is this hopscope process");
    }

    @Test
    void aBadIntervalIsUsage() {
        Cli r = Cli.run("live", "1", "--interval", "0");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--interval must be between 0.1 and 3600 seconds, got 0.0")
                .contains("Usage: hopscope live");
        Cli notANumber = Cli.run("live", "1", "--interval", "soon");
        assertThat(notANumber.exitCode()).isEqualTo(2);
        assertThat(notANumber.err()).contains("--interval").contains("Usage: hopscope live");
    }

    @Test
    void aPidOrWaitIsNeededAndNotBoth() {
        Cli none = Cli.run("live");
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).startsWith("give the PID of the JVM to watch, or --wait PATTERN")
                .contains("Usage: hopscope live (PID | --wait PATTERN) [AGENT_OPTIONS] [OPTIONS]");
        Cli both = Cli.run("live", "42", "--wait", "app.jar");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).startsWith("give a PID or --wait PATTERN, not both");
        Cli blank = Cli.run("live", "--wait", " ");
        assertThat(blank.exitCode()).isEqualTo(2);
        assertThat(blank.err()).startsWith("--wait needs a main class or jar to match");
    }

    @Test
    void profileOptionsNeedAnEndpointAndSaneValues() {
        Cli noEndpoint = Cli.run("live", "1", "--profile-interval", "10");
        assertThat(noEndpoint.exitCode()).isEqualTo(2);
        assertThat(noEndpoint.err()).startsWith("--profile-interval is for --otlp or --push");
        Cli tooLong = Cli.run("live", "1", "--otlp", "http://127.0.0.1:1", "--profile-interval", "3601");
        assertThat(tooLong.exitCode()).isEqualTo(2);
        assertThat(tooLong.err()).startsWith("--profile-interval must be 0 (no profiles) or between 1 and 3600 seconds,"
                + " got 3601");
        Cli pushNothing = Cli.run("live", "1", "--push", "http://127.0.0.1:1", "--profile-interval", "0");
        assertThat(pushNothing.exitCode()).isEqualTo(2);
        assertThat(pushNothing.err()).startsWith("--push sends profiles: --profile-interval 0 leaves it nothing");
        Cli noBuffer = Cli.run("live", "1", "--otlp", "http://127.0.0.1:1", "--buffer", "0");
        assertThat(noBuffer.exitCode()).isEqualTo(2);
        assertThat(noBuffer.err()).startsWith("--buffer must be at least 1 window, got 0");
        Cli pushFtp = Cli.run("live", "1", "--push", "ftp://127.0.0.1/x");
        assertThat(pushFtp.exitCode()).isEqualTo(2);
        assertThat(pushFtp.err()).startsWith("--push must be an http:// or https:// URL with a host");
    }

    @Test
    void helpShowsAnExample() {
        Cli r = Cli.run("live", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Example: hopscope live 4242 requests=com.example.Api#call")
                .contains("hopscope live --wait app.jar --otlp http://collector:4318");
    }
}
