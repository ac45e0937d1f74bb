package io.hopscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/** Misuse of every subcommand: one lower-case line naming the option, exit 2, no stack trace. */
class OptionValidationTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "pipeline --mode bogus                 | --mode must be sync or sync-over-async, got 'bogus'",
        "pipeline --http-client curl           | --http-client must be okhttp, netty or jdk, got 'curl'",
        "pipeline --parallel 0                 | --parallel must be >= 1, got 0",
        "pipeline --size -1                    | --size must be >= 0, got -1",
        "pipeline --warmup -1                  | --warmup must be >= 0, got -1.0",
        "pipeline --duration 0                 | --duration must be > 0, got 0.0",
        "pipeline --count -5                   | --count must be > 0, got -5",
        "pipeline --duration 1 --count 2       | give --duration or --count, not both",
        "pipeline --parallel many              | Invalid value for option '--parallel'",
        "pipeline --first-window 2 --warmup 1  | --first-window must be between 0 and --warmup (1.0), got 2.0",
        "jdk-http --first-window 1 --warmup 2  | --first-window is measured by pipeline only",
        "pipeline --callers green              | --callers must be platform or virtual, got 'green'",
        "jdk-http --callers virtual            | --callers virtual needs --mode sync (an async producer does not block), got --mode async",
        "jdk-http --callers carrier --mode sync | --callers must be platform or virtual, got 'carrier'",
        "jdk-http --mode blocking              | --mode must be async or sync, got 'blocking'",
        "jdk-http --io-threads 0               | --io-threads must be >= 1, got 0",
        "jdk-http --producers -1               | --producers must be >= 1",
        "jdk-http --in-flight 0                | --in-flight must be >= 1",
        "open-loop --rps 0                     | --rps must be >= 1",
        "open-loop --mode threads              | --mode must be async, sync-over-async, okhttp-sync or virtual-sync, got 'threads'",
        "open-loop --duration -3               | --duration must be >= 1, got -3",
        "open-loop --response-bytes -1         | --response-bytes must be >= 0, got -1",
        "serve --mode blocking                 | --mode must be pool, async or virtual, got 'blocking'",
        "serve --rate 0                        | --rate must be >= 1, got 0",
        "serve --rate fast                     | Invalid value for option '--rate'",
        "serve --duration 1 --count 2          | give --duration or --count, not both",
        "serve --duration 0                    | --duration must be > 0, got 0.0",
        "serve --count 0                       | --count must be > 0, got 0",
        "serve --warmup -1                     | --warmup must be >= 0, got -1.0",
        "serve --connections 0                 | --connections must be >= 1, got 0",
        "serve --threads 0                     | --threads must be >= 1, got 0",
        "serve --work-threads 0                | --work-threads must be >= 1, got 0",
        "serve --work-bytes -1                 | --work-bytes must be >= 0, got -1",
        "serve --backend-delay-ms -1           | --backend-delay-ms must be >= 0, got -1",
        "serve --backend-bytes -1              | --backend-bytes must be 0..67108864, got -1",
        "serve --rate 100000 --duration 30     | --rate x (--warmup + the measured seconds) must be at most 2000000 requests, got 3000000",
        "serve --requests-file /no/such/dir/r.tsv | --requests-file: cannot write /no/such/dir/r.tsv (its folder is missing or not writable)",
        "known-path --count -1                 | --count must be >= 0, got -1",
        "known-path --pause-ms -1              | --pause-ms must be >= 0, got -1",
        "known-path --lock-hold-ms -2          | --lock-hold-ms must be >= 0",
        "server --port 70000                   | --port must be 0..65535, got 70000",
        "server --delay-ms -1                  | --delay-ms must be >= 0, got -1",
        "server --size -1                      | --size must be 0..",
        "pipeline --no-such-option             | Unknown option: '--no-such-option'",
        "bench --rounds 0                      | --rounds must be >= 1, got 0",
        "bench --first-window -1               | --first-window must be >= 0, got -1.0",
        "bench --analyzer-runs 0               | --analyzer-runs must be >= 1, got 0",
        "bench --analyzer-recording 0          | --analyzer-recording must be > 0, got 0.0",
        "bench --configs none,otell            | --configs: unknown configuration 'otell'; choose from none, empty-agent, boot-append, hopscope,",
        "bench --configs none,none             | --configs: 'none' given twice",
        "bench --configs none,hopscope-b       | --configs: hopscope-b runs the agent of --agent-b; give --agent-b JAR",
        "bench --agent-b /no/such/agent.jar    | --agent-b: /no/such/agent.jar is not a file",
        "bench --workloads okhttp              | --workloads: unknown workload 'okhttp'; choose from okhttp-sync-1k,",
        "bench --first-window 20 --warmup 10   | --warmup must be >= --first-window (20.0), got 10.0",
        "bench --duration 0                    | --duration must be > 0, got 0.0",
        "bench --json /no/such/dir/b.json      | --json: cannot write /no/such/dir/b.json (its folder is missing or not writable)",
    })
    void badOptionIsOneLineAndExitTwo(String commandLine, String message) {
        Run run = Run.of(commandLine.trim().split("\\s+"));

        assertThat(run.exitCode).as(run.toString()).isEqualTo(2);
        assertThat(run.err.strip().lines()).as(run.toString()).hasSize(1);
        assertThat(run.err).contains(message).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(run.out).isEmpty();
    }

    /** The build's JDK 17 has no virtual threads: asking for them is the user's mistake, said in one line. */
    @ParameterizedTest
    @EnabledForJreRange(max = JRE.JAVA_20)
    @CsvSource(delimiter = '|', value = {
        "pipeline --callers virtual --count 1              | pipeline: --callers virtual needs a JDK 21 or later; this is ",
        "jdk-http --mode sync --callers virtual --count 1  | jdk-http: --callers virtual needs a JDK 21 or later; this is ",
        "open-loop --mode virtual-sync --duration 1        | open-loop: --mode virtual-sync needs a JDK 21 or later; this is ",
        "serve --mode virtual --count 1                    | serve: --mode virtual needs a JDK 21 or later; this is ",
    })
    void virtualThreadsBeforeJdk21AreOneLineAndExitTwo(String commandLine, String message) {
        Run run = Run.of(commandLine.trim().split("\\s+"));

        assertThat(run.exitCode).as(run.toString()).isEqualTo(2);
        assertThat(run.err.strip()).isEqualTo(message.strip() + " " + Runtime.version().feature());
        assertThat(run.out).isEmpty();
    }

    @Test
    void unreachableUriIsOneLineAndExitTwo() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        for (String scenario : new String[] {"pipeline", "jdk-http", "open-loop"}) {
            Run run = Run.of(scenario, "--uri", "http://127.0.0.1:" + closedPort, "--duration", "1");

            assertThat(run.exitCode).as(run.toString()).isEqualTo(2);
            assertThat(run.err.strip().lines()).as(run.toString()).hasSize(1);
            assertThat(run.err).contains("cannot reach --uri http://127.0.0.1:" + closedPort);
        }
    }

    @Test
    void nonHttpUriIsRejected() {
        Run run = Run.of("jdk-http", "--uri", "ftp://127.0.0.1:21", "--count", "1");

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--uri must be http://HOST:PORT");
    }

    @Test
    void benchRefusesAMarkdownFileWithUnpairedMarkersBeforeItRuns() throws Exception {
        java.nio.file.Path md = java.nio.file.Files.createTempFile("performance", ".md");
        java.nio.file.Files.writeString(md, "# Performance\n<!-- bench:begin -->\nno end\n");

        Run run = Run.of("bench", "--markdown", md.toString());

        assertThat(run.exitCode).as(run.toString()).isEqualTo(2);
        assertThat(run.err.strip()).isEqualTo("bench: --markdown: " + md
                + " needs one <!-- bench:begin --> followed by one <!-- bench:end -->");
        assertThat(java.nio.file.Files.readString(md)).isEqualTo("# Performance\n<!-- bench:begin -->\nno end\n");
    }

    /** --delay-ms is one option of ServerOptions, with open-loop's slow server as its own default. */
    @Test
    void serverOptionsKeepEachScenariosDelayDefault() {
        for (String scenario : new String[] {"open-loop", "pipeline", "jdk-http"}) {
            Run run = Run.of(scenario, "--help");

            assertThat(run.exitCode).as(run.toString()).isZero();
            assertThat(run.out.replaceAll("\\s+", " "))
                    .contains("--delay-ms=<delayMs> Server delay per request in ms (default "
                            + ("open-loop".equals(scenario) ? "5000" : "0") + ")")
                    .contains("--response-bytes=<responseBytes> Response body bytes (default 1024)")
                    .contains("--uri=<uri> Target server http://HOST:PORT (default: an embedded server)");
        }
    }

    @Test
    void helpListsEverySubcommand() {
        Run run = Run.of("--help");

        assertThat(run.exitCode).isZero();
        assertThat(run.out).contains("server", "pipeline", "jdk-http", "open-loop", "serve", "known-path", "bench");
    }
}
