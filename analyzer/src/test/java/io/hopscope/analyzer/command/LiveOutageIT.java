package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.OtelCollector;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.ReceivedProfiles;
import io.hopscope.analyzer.testing.ReceivedProfiles.Window;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Collector stopped for 20 s while two {@code live --otlp} watch the open-loop sample, and started
 * again on the same port: neither exits. The one that keeps five windows of 10 s gets every window to the
 * Collector, those from before, during and after the outage, in order and once each; the one that keeps
 * one window of 5 s drops the oldest, and what it says it dropped (its stderr, and the metric it sends,
 * {@code hopscope.export.dropped}) is exactly what is missing from the Collector's files. The jitter of the
 * retries is seeded, so each run of the test retries at the same offsets.
 */
class LiveOutageIT {

    private static final long OUTAGE_MILLIS = 20_000;

    @TempDir
    Path dir;

    @Test
    void theCollectorAwayForTwentySecondsLosesNothingKeptAndExactlyWhatIsCountedOfTheRest() throws Exception {
        Path samples = Paths.samplesJar();
        Path agent = Paths.agentJar();
        Path cli = Paths.cliJar();
        Paths.needJars(samples, agent, cli);
        try (OtelCollector collector = OtelCollector.start(dir)) {
            Process target = new ProcessBuilder(LiveCommandIT.java(), "-javaagent:" + agent + "=" + LiveCommandIT.OPTIONS,
                    "-jar", samples.toString(), "open-loop", "--mode", "sync-over-async", "--rps", "20", "--delay-ms", "5",
                    "--duration", "600").redirectErrorStream(true).start();
            LiveCommandIT.Lines targetOut = new LiveCommandIT.Lines(target);
            try {
                targetOut.await(l -> l.startsWith("# open-loop"), 1, 120);
                String pid = Long.toString(target.pid());
                LiveCommandIT.Live kept = live(cli, "kept.err", pid, collector, "outage-kept", "10", "5");
                LiveCommandIT.Live one = live(cli, "one.err", pid, collector, "outage-one", "5", "1");
                // Before: two whole windows of each.
                await(collector, w -> count(w, "outage-kept") >= 2 && count(w, "outage-one") >= 3, 300, "windows before");
                collector.stop();
                long stoppedAt = System.currentTimeMillis() * 1_000_000L;
                Thread.sleep(OUTAGE_MILLIS);
                assertThat(kept.process.isAlive()).as("live goes on through the outage").isTrue();
                assertThat(one.process.isAlive()).as("live goes on through the outage").isTrue();
                long restartedAt = System.currentTimeMillis() * 1_000_000L;
                collector.restart();
                // After: windows that began after the restart, two of each.
                await(collector, w -> after(w, "outage-kept", restartedAt) >= 2 && after(w, "outage-one", restartedAt) >= 2,
                        300, "windows after the restart");
                for (LiveCommandIT.Live live : List.of(kept, one)) {
                    assertThat(live.process.isAlive()).isTrue();
                    live.interrupt();
                    live.awaitExit(60, "live ends on Ctrl-C");
                    assertThat(live.process.exitValue()).as(Files.readString(live.errFile)).isZero();
                }
                // What each says it sent, all of it in the Collector's files (written just after it answered).
                long keptSent = sent(kept, "profile windows");
                long oneSent = sent(one, "profile windows");
                await(collector, w -> count(w, "outage-kept") == keptSent && count(w, "outage-one") == oneSent, 60,
                        "every window each says it sent");
                List<Window> windows = ReceivedProfiles.windows(collector.received("profiles", 0));
                long oneMetricsSent = sent(one, "metrics exports");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                List<String> metrics = collector.received("metrics", 0);
                while (ReceivedProfiles.metricExports(metrics, "outage-one") < oneMetricsSent && System.nanoTime() < deadline) {
                    Thread.sleep(500);
                    metrics = collector.received("metrics", 0);
                }

                // Five windows kept: every window arrives, in order, once; some from during the outage.
                List<Long> keptIndex = indices(windows, "outage-kept", 10);
                assertThat(keptIndex).as("consecutive, in order, none twice").isEqualTo(range(keptIndex.get(0), keptIndex.size()));
                List<Window> keptWindows = of(windows, "outage-kept");
                assertThat(keptWindows).anySatisfy(w -> assertThat(w.endNanos()).isLessThanOrEqualTo(stoppedAt));
                assertThat(keptWindows).anySatisfy(w -> assertThat(w.startNanos()).isBetween(stoppedAt, restartedAt));
                assertThat(keptWindows).anySatisfy(w -> assertThat(w.startNanos()).isGreaterThanOrEqualTo(restartedAt));
                assertThat(ReceivedProfiles.lastCounter(metrics, "outage-kept", "hopscope.export.dropped"))
                        .containsExactlyInAnyOrderEntriesOf(Map.of("profiles", 0L, "metrics", 0L));
                List<String> keptErr = Files.readAllLines(kept.errFile);
                assertThat(keptErr.stream().filter(l -> l.contains("and trying again"))).hasSize(1);
                assertThat(keptErr.stream().filter(l -> l.contains(": taking data again after "))).singleElement().asString()
                        .endsWith("; nothing was dropped");

                // One window kept: in order, none twice, and the gaps are exactly the windows it counted dropped.
                List<Long> oneIndex = indices(windows, "outage-one", 5);
                long missing = 0;
                for (int i = 1; i < oneIndex.size(); i++) {
                    assertThat(oneIndex.get(i)).as("in order, none twice: %s", oneIndex).isGreaterThan(oneIndex.get(i - 1));
                    missing += oneIndex.get(i) - oneIndex.get(i - 1) - 1;
                }
                assertThat(missing).as("a 20 s outage with one window of 5 s kept drops some").isPositive();
                List<String> oneErr = Files.readAllLines(one.errFile);
                assertThat(oneErr.stream().filter(l -> l.contains("and trying again"))).hasSize(1);
                String back = oneErr.stream().filter(l -> l.contains(": taking data again after ")).findFirst().orElseThrow();
                Matcher said = Pattern.compile("dropped (\\d+) profile windows? and (\\d+) metrics exports? \\(the oldest\\)")
                        .matcher(back);
                assertThat(said.find()).as(back).isTrue();
                long droppedMetrics = Long.parseLong(said.group(2));
                assertThat(Long.parseLong(said.group(1))).isEqualTo(missing);
                assertThat(ReceivedProfiles.lastCounter(metrics, "outage-one", "hopscope.export.dropped"))
                        .containsExactlyInAnyOrderEntriesOf(Map.of("profiles", missing, "metrics", droppedMetrics));
                // Every metrics export it says it sent is in the Collector's file, once; and it says what it dropped.
                assertThat(ReceivedProfiles.metricExports(metrics, "outage-one")).isEqualTo(oneMetricsSent);
                assertThat(oneErr.get(oneErr.size() - 1)).endsWith("metrics exports, dropped " + droppedMetrics);
                assertThat(String.join("\n", oneErr) + String.join("\n", keptErr)).doesNotContain("hopscope:")
                        .doesNotContain("\tat ");
            } finally {
                target.destroyForcibly();
            }
        }
    }

    private LiveCommandIT.Live live(Path cli, String err, String pid, OtelCollector collector, String service,
                                    String windowSeconds, String buffer) throws Exception {
        return new LiveCommandIT.Live(cli, dir.resolve(err), List.of("-D" + LiveCommand.RETRY_SEED_PROPERTY + "=43"),
                pid, "--json", "--otlp", collector.otlpUrl(), "--service-name", service, "--profile-interval", windowSeconds,
                "--buffer", buffer);
    }

    /** What live's last line says it sent of {@code what} ("profile windows", "metrics exports"). */
    private static long sent(LiveCommandIT.Live live, String what) throws Exception {
        List<String> err = Files.readAllLines(live.errFile);
        String last = err.get(err.size() - 1);
        Matcher m = Pattern.compile("sent (\\d+) (of \\d+ )?" + what).matcher(last);
        assertThat(m.find()).as(last).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static List<Window> of(List<Window> windows, String service) {
        return windows.stream().filter(w -> service.equals(w.service())).toList();
    }

    private static long count(List<Window> windows, String service) {
        return of(windows, service).size();
    }

    private static long after(List<Window> windows, String service, long epochNanos) {
        return of(windows, service).stream().filter(w -> w.startNanos() >= epochNanos).count();
    }

    // Each window's place on the epoch's grid of windows (the first one starts at the attach, within its own).
    private static List<Long> indices(List<Window> windows, String service, long windowSeconds) {
        List<Long> indices = new ArrayList<>();
        for (Window w : of(windows, service)) {
            indices.add(Math.floorDiv(w.startNanos(), TimeUnit.SECONDS.toNanos(windowSeconds)));
        }
        return indices;
    }

    private static List<Long> range(long first, int size) {
        List<Long> r = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            r.add(first + i);
        }
        return r;
    }

    private static void await(OtelCollector collector, java.util.function.Predicate<List<Window>> done, int seconds,
                              String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Window> windows = List.of();
        while (System.nanoTime() < deadline) {
            windows = ReceivedProfiles.windows(collector.received("profiles", 0));
            if (done.test(windows)) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError(what + " within " + seconds + " s, got " + windows);
    }
}
