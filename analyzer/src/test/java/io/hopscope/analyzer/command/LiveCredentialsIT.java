package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.OtelCollector;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code live --otlp} against a Collector that takes only its own bearer token (the bearer token
 * authenticator, as a fleet's Collector is set up): a wrong token from OTEL_EXPORTER_OTLP_HEADERS is one
 * line and exit 2 (it would be refused again: no retry), the right one from --headers-file is taken, and
 * neither token appears in anything live prints.
 */
class LiveCredentialsIT {

    private static final String TOKEN = "c0llect0r-t0ken-4f9a1d";
    private static final String WRONG = "wr0ng-t0ken-77b2e0";

    @TempDir
    Path dir;

    @Test
    void aRefusedTokenIsOneLineAndExitTwoAndNoTokenIsEverPrinted() throws Exception {
        Path samples = Paths.samplesJar();
        Path agent = Paths.agentJar();
        Path cli = Paths.cliJar();
        Paths.needJars(samples, agent, cli);
        try (OtelCollector collector = OtelCollector.start(dir, TOKEN)) {
            Process target = new ProcessBuilder(LiveCommandIT.java(), "-javaagent:" + agent + "=" + LiveCommandIT.OPTIONS,
                    "-jar", samples.toString(), "open-loop", "--mode", "sync-over-async", "--rps", "20", "--delay-ms", "5",
                    "--duration", "600").redirectErrorStream(true).start();
            LiveCommandIT.Lines targetOut = new LiveCommandIT.Lines(target);
            try {
                targetOut.await(l -> l.startsWith("# open-loop"), 1, 120);
                String pid = Long.toString(target.pid());

                LiveCommandIT.Live refused = new LiveCommandIT.Live(cli, dir.resolve("refused.err"),
                        Map.of("OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer%20" + WRONG), List.of(), pid, "--json",
                        "--otlp", collector.otlpUrl(), "--service-name", "credentials", "--profile-interval", "5");
                refused.awaitExit(180, "live ends at the refusal");
                String err = Files.readString(refused.errFile);
                assertThat(refused.process.exitValue()).as(err).isEqualTo(2);
                List<String> problems = err.lines().filter(l -> !l.startsWith("live: ")).toList();
                assertThat(problems).as(err).singleElement().asString()
                        .startsWith("hopscope: " + collector.otlpUrl() + "/v1")
                        .contains(": refused with HTTP 401")
                        .endsWith("(its headers come from OTEL_EXPORTER_OTLP_HEADERS, the signal's own variable or"
                                + " --headers-file)");
                String out = String.join("\n", refused.out.all());
                assertThat(err + out).doesNotContain(WRONG).doesNotContain(TOKEN).doesNotContain("\tat ");
                assertThat(err).doesNotContain("trying again"); // a refusal is not an outage

                Path headers = dir.resolve("headers");
                Files.writeString(headers, "Authorization=Bearer%20" + TOKEN + "\n");
                Files.setPosixFilePermissions(headers, PosixFilePermissions.fromString("rw-------"));
                LiveCommandIT.Live taken = new LiveCommandIT.Live(cli, dir.resolve("taken.err"), pid, "--json",
                        "--otlp", collector.otlpUrl(), "--headers-file", headers.toString(), "--service-name", "credentials",
                        "--profile-interval", "5");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
                while ((collector.received("metrics", 0).isEmpty() || collector.received("profiles", 0).isEmpty())
                        && System.nanoTime() < deadline) {
                    assertThat(taken.process.isAlive()).as("%s", Files.readString(taken.errFile)).isTrue();
                    Thread.sleep(500);
                }
                assertThat(collector.received("metrics", 0)).as(collector.log()).isNotEmpty();
                assertThat(collector.received("profiles", 0)).as(collector.log()).isNotEmpty();
                taken.interrupt();
                taken.awaitExit(60, "live ends on Ctrl-C");
                String takenErr = Files.readString(taken.errFile);
                assertThat(taken.process.exitValue()).as(takenErr).isZero();
                assertThat(takenErr + String.join("\n", taken.out.all())).doesNotContain(TOKEN).doesNotContain("hopscope:");
            } finally {
                target.destroyForcibly();
            }
        }
    }
}
