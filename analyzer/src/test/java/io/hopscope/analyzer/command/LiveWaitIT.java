package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.OtelCollector;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.ReceivedProfiles;
import io.hopscope.analyzer.testing.ReceivedProfiles.Window;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code live --wait PATTERN} as a pod's sidecar runs it: started before its application, it attaches
 * to the JVM whose jar matches (loading the agent), and when that JVM exits, to the next one of the same
 * jar; the Collector receives both JVMs' profiles and metrics under the one service name. The jar is a
 * copy of the samples jar under a name of this run's own, so that no other JVM on the machine matches.
 */
class LiveWaitIT {

    @TempDir
    Path dir;

    @Test
    void aSecondJvmOfTheSameJarIsWatchedWhenTheFirstExitsUnderTheSameServiceName() throws Exception {
        Path samples = Paths.samplesJar();
        Path agent = Paths.agentJar();
        Path cli = Paths.cliJar();
        Paths.needJars(samples, agent, cli);
        String jarName = "app-" + UUID.randomUUID() + ".jar";
        Path app = Files.copy(samples, dir.resolve(jarName));
        try (OtelCollector collector = OtelCollector.start(dir)) {
            LiveCommandIT.Live live = new LiveCommandIT.Live(cli, dir.resolve("live.err"), "--wait", jarName,
                    LiveCommandIT.OPTIONS, "--agent", agent.toString(), "--json", "--otlp", collector.otlpUrl(),
                    "--service-name", "restarted-app", "--profile-interval", "5");
            try {
                awaitErr(live, "live: waiting for a JVM matching '" + jarName + "'", 60);
                long firstStart = System.currentTimeMillis() * 1_000_000L;
                Process first = start(app);
                try {
                    awaitErr(live, "live: watching process " + first.pid() + " ", 180);
                    awaitWindows(collector, firstStart, 1, 180);
                } finally {
                    first.destroy();
                    assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
                }
                awaitErr(live, "live: process " + first.pid() + " exited after ", 60);
                assertThat(live.process.isAlive()).as("live waits for the next JVM").isTrue();

                long secondStart = System.currentTimeMillis() * 1_000_000L;
                Process second = start(app);
                try {
                    awaitErr(live, "live: watching process " + second.pid() + " ", 180);
                    // The second JVM's data, under the same service name: profile windows after its start.
                    List<Window> after = awaitWindows(collector, secondStart, 2, 180);
                    assertThat(after).allSatisfy(w -> {
                        assertThat(w.service()).isEqualTo("restarted-app");
                        assertThat(w.requestsByName()).containsKey(LiveCommandIT.REQUEST);
                    });
                    // And its metrics: an export after its start.
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (!metricsSince(collector, secondStart) && System.nanoTime() < deadline) {
                        Thread.sleep(500);
                    }
                    assertThat(metricsSince(collector, secondStart)).as("metrics of the second JVM").isTrue();
                } finally {
                    live.interrupt();
                    live.awaitExit(60, "live ends on Ctrl-C");
                    second.destroyForcibly();
                }
            } finally {
                live.process.destroyForcibly();
            }
            String err = Files.readString(dir.resolve("live.err"));
            assertThat(live.process.exitValue()).as(err).isZero();
            assertThat(err).doesNotContain("hopscope:");
            assertThat(live.err()).last().asString().matches("live: stopped, interrupted, after \\d+ intervals; sent \\d+ of \\d+"
                    + " profile windows, dropped 0; sent \\d+ metrics exports, dropped 0");
            assertThat(live.err().stream().filter(l -> l.startsWith("live: loaded the agent into process "))).hasSize(2);
        }
    }

    // The copy of the samples jar, run as an application is: no agent (live loads it), its own load.
    private static Process start(Path app) throws Exception {
        return new ProcessBuilder(LiveCommandIT.java(), "-jar", app.toString(), "open-loop", "--mode", "sync-over-async",
                "--rps", "20", "--delay-ms", "5", "--duration", "600").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void awaitErr(LiveCommandIT.Live live, String start, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (live.err().stream().noneMatch(l -> l.startsWith(start))) {
            assertThat(live.process.isAlive()).as("live runs: %s", Files.readString(live.errFile)).isTrue();
            assertThat(System.nanoTime()).as("'%s' within %d s: %s", start, seconds, Files.readString(live.errFile))
                    .isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    /** Waits for {@code count} windows that start at or after {@code sinceEpochNanos}; returns them. */
    private static List<Window> awaitWindows(OtelCollector collector, long sinceEpochNanos, int count, int seconds)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            List<Window> since = ReceivedProfiles.windows(collector.received("profiles", 0)).stream()
                    .filter(w -> w.startNanos() >= sinceEpochNanos).toList();
            if (since.size() >= count) {
                return since;
            }
            assertThat(System.nanoTime()).as("%d windows within %d s", count, seconds).isLessThan(deadline);
            Thread.sleep(500);
        }
    }

    private static boolean metricsSince(OtelCollector collector, long sinceEpochNanos) throws Exception {
        for (String line : collector.received("metrics", 0)) {
            if (line.contains("restarted-app") && line.contains("hopscope.requests")) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"timeUnixNano\":\"(\\d+)\"").matcher(line);
                while (m.find()) {
                    if (Long.parseLong(m.group(1)) > sinceEpochNanos) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
