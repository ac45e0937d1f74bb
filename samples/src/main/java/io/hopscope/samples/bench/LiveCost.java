package io.hopscope.samples.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * What watching a JVM with {@code hopscope live --otlp} costs (issue #43), from one workload's
 * {@code hopscope+live} and {@code hopscope-unwatched} runs of the same rounds (interleaved, side by side
 * in time): the target's throughput watched over unwatched, the target's CPU per request added by being
 * watched (its JFR stream: the agent's events committed, the chunks read out over JMX), and live's own CPU
 * per request it watched. Every round shown, with the medians.
 */
record LiveCost(Workload workload, List<Double> throughputRatios, List<Double> targetCpuAddedUs, List<Double> liveCpuUs) {

    /** The cost on {@code w}, or null when the bench ran no pair of those rows there. */
    static LiveCost of(BenchResult r, Workload w) {
        Row live = r.row(w, Configuration.HOPSCOPE_LIVE);
        Row unwatched = r.row(w, Configuration.HOPSCOPE_UNWATCHED);
        if (live == null || unwatched == null) {
            return null;
        }
        List<Double> ratios = new ArrayList<>();
        List<Double> added = new ArrayList<>();
        List<Double> liveCpu = new ArrayList<>();
        Workload.Kind kind = w.kind;
        for (int i = 0; i < live.rounds.size() && i < unwatched.rounds.size(); i++) {
            RunLauncher.RunResult watched = live.rounds.get(i);
            RunLauncher.RunResult alone = unwatched.rounds.get(i);
            if (!watched.ok() || !alone.ok()) {
                continue;
            }
            if (kind.throughputKey != null) {
                ratios.add(Figures.ratio(watched.figure(kind.throughputKey), alone.figure(kind.throughputKey)));
            }
            added.add(Figures.difference(watched.figure(kind.cpuKey), alone.figure(kind.cpuKey)));
            liveCpu.add(watched.figure("live_cpu_us_per_request"));
        }
        return new LiveCost(w, ratios, added, liveCpu);
    }

    Double throughputRatio() {
        return median(throughputRatios);
    }

    Double targetCpuAdded() {
        return median(targetCpuAddedUs);
    }

    Double liveCpu() {
        return median(liveCpuUs);
    }

    private static Double median(List<Double> values) {
        List<Double> known = values.stream().filter(v -> v != null && !v.isNaN()).toList();
        return known.isEmpty() ? null : Figures.median(known);
    }

    /** One line: each figure by round, then its median. */
    String line() {
        return workload.label + " watched by hopscope live --otlp: the target's throughput watched / unwatched by round "
                + Figures.list(throughputRatios, "%.3f") + " (median " + Figures.fmt(throughputRatio(), "%.3f") + "); the target's CPU added"
                + " by being watched, us/request, " + Figures.list(targetCpuAddedUs, "%+.1f") + " (median " + Figures.fmt(targetCpuAdded(), "%+.1f")
                + "); live's own CPU per watched request, us, " + Figures.list(liveCpuUs, "%.1f") + " (median " + Figures.fmt(liveCpu(), "%.1f")
                + ", from its " + RunLauncher.LIVE_SKIP + "th second on)";
    }
}
