package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.testing.OtelCollector;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.ReceivedProfiles;
import io.hopscope.analyzer.testing.ReceivedProfiles.Window;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code live PID --otlp URL --profile-interval 10} on the open-loop sample (Netty sync-over-async: a
 * handoff to the event loop and a wake back each call), which records itself under the agent
 * ({@code jfr=}): the Collector's file exporter holds a profile export per window, and three whole
 * windows in a row hold as many requests, name by name, as the recording of the same run has ending in
 * their thirty seconds; with the sample types export gives the same recording.
 */
class LiveProfilesIT {

    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(10);

    @TempDir
    Path dir;

    @Test
    void threeWindowsOfTenSecondsHoldTheRequestsTheRecordingHasEndingInThem() throws Exception {
        Path samples = Paths.samplesJar();
        Path agent = Paths.agentJar();
        Path cli = Paths.cliJar();
        Paths.needJars(samples, agent, cli);
        Path recording = dir.resolve("open-loop.jfr");
        try (OtelCollector collector = OtelCollector.start(dir)) {
            // Long enough for three whole windows after live's attach on a loaded machine; the test ends it sooner.
            Process target = new ProcessBuilder(LiveCommandIT.java(),
                    "-javaagent:" + agent + "=jfr=" + recording + "," + LiveCommandIT.OPTIONS,
                    "-jar", samples.toString(), "open-loop", "--mode", "sync-over-async", "--rps", "20", "--delay-ms", "5",
                    "--duration", "300").redirectErrorStream(true).start();
            LiveCommandIT.Lines targetOut = new LiveCommandIT.Lines(target);
            List<Window> whole;
            LiveCommandIT.Live live;
            try {
                targetOut.await(l -> l.startsWith("# open-loop"), 1, 120);
                live = new LiveCommandIT.Live(cli, dir.resolve("live.err"), Long.toString(target.pid()), "--json",
                        "--otlp", collector.otlpUrl(), "--profile-interval", "10", "--service-name", "open-loop");
                whole = awaitWholeWindows(collector, 3, 300);
            } finally {
                // SIGTERM: the agent writes its recording at the JVM's exit.
                target.destroy();
                assertThat(target.waitFor(120, TimeUnit.SECONDS)).as("the target ends on SIGTERM").isTrue();
            }
            live.awaitExit(60, "live ends when the target exits");
            String err = Files.readString(dir.resolve("live.err"));
            assertThat(live.process.exitValue()).as(err).isZero();
            assertThat(err).doesNotContain("hopscope:").contains("live: stopped, process " + target.pid() + " exited");
            List<Window> all = ReceivedProfiles.windows(collector.received("profiles", 1));
            assertThat(all).allSatisfy(w -> assertThat(w.service()).isEqualTo("open-loop"));

            // The recording's requests that ended in the three windows' thirty seconds, by name.
            long from = whole.get(0).startNanos();
            long to = whole.get(2).endNanos();
            Map<String, Long> recorded = new TreeMap<>();
            for (Request r : new RecordingAnalyzer(recording, AnalysisOptions.all()).analyze().requests()) {
                if (r.endEpochNanos() >= from && r.endEpochNanos() < to) {
                    recorded.merge(r.name(), 1L, Long::sum);
                }
            }
            Map<String, Long> windowed = new TreeMap<>();
            whole.forEach(w -> w.requestsByName().forEach((name, n) -> windowed.merge(name, n, Long::sum)));
            assertThat(recorded).containsKey(LiveCommandIT.REQUEST);
            assertThat(windowed).as("the three windows against the recording, %s", whole).isEqualTo(recorded);
            assertThat(whole).allSatisfy(w -> assertThat(w.requests()).isEqualTo(w.requestsByName().values().stream()
                    .mapToLong(Long::longValue).sum()));

            // The sample types: a call's handoff and wake, and what export gives the same recording.
            Set<String> types = new HashSet<>();
            all.forEach(w -> types.addAll(w.totals().keySet()));
            assertThat(types).contains("requests", "queue_delay", "wake_latency", "alloc_space");
            Cli export = Cli.runJar(cli, "export", recording.toString(), "--format", "otlp", "-o", dir.resolve("x.pb").toString());
            assertThat(export.code()).as(export.err()).isZero();
            assertThat(export.err()).contains("exported samples (");
            for (String type : types) {
                assertThat(export.err()).as("export of the same recording gives %s", type).contains(type + " ");
            }
        }
    }

    /**
     * Waits for {@code count} windows of the whole ten seconds in a row (the first one is partial: it
     * starts at live's attach), and returns the first such run.
     */
    private static List<Window> awaitWholeWindows(OtelCollector collector, int count, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Window> windows = List.of();
        while (System.nanoTime() < deadline) {
            windows = ReceivedProfiles.windows(collector.received("profiles", windows.size() + 1));
            List<Window> run = new ArrayList<>();
            for (Window w : windows) {
                if (w.durationNanos() != WINDOW_NANOS || !run.isEmpty() && run.get(run.size() - 1).endNanos() != w.startNanos()) {
                    run.clear();
                }
                if (w.durationNanos() == WINDOW_NANOS) {
                    run.add(w);
                }
                if (run.size() == count) {
                    return run;
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError(count + " whole windows in a row within " + seconds + " s, got " + windows);
    }

    /** The CLI as its own JVM. */
    record Cli(int code, String out, String err) {
        static Cli runJar(Path jar, String... args) throws Exception {
            List<String> command = new ArrayList<>(List.of(LiveCommandIT.java(), "-jar", jar.toString()));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).start();
            String out = new String(p.getInputStream().readAllBytes());
            String err = new String(p.getErrorStream().readAllBytes());
            assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
            return new Cli(p.exitValue(), out, err);
        }
    }
}
