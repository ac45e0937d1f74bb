package io.hopscope.samples.bench;

import io.hopscope.samples.bench.Figures.Spread;
import io.hopscope.samples.bench.RunLauncher.RunResult;
import java.util.ArrayList;
import java.util.List;

/** One workload under one configuration: its runs, one a round, and what they come to against the baseline's. */
final class Row {

    final Workload workload;
    final Configuration config;
    final List<RunResult> rounds = new ArrayList<>();

    Row(Workload workload, Configuration config) {
        this.workload = workload;
        this.config = config;
    }

    /** Why the row has no figures at all (unavailable here, or every run failed), or null. */
    String whyNoFigures() {
        String why = null;
        for (RunResult r : rounds) {
            if (r.ok()) {
                return null;
            }
            why = r.unavailable() != null ? "not run: " + r.unavailable() : "failed: " + r.error();
        }
        return why != null ? why : "not run";
    }

    /** Failures of single rounds in a row that has figures, for the table's note. */
    String failedRounds() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < rounds.size(); i++) {
            if (rounds.get(i).error() != null) {
                b.append(b.length() == 0 ? "" : "; ").append("round ").append(i + 1).append(" failed: ").append(rounds.get(i).error());
            }
        }
        return b.toString();
    }

    /**
     * The row's figures against the baseline's, round by round (each ratio from runs of the same
     * round, next to each other in time); {@code baseline} null leaves the ratios unknown.
     */
    Summary summary(Row baseline) {
        List<Double> throughput = new ArrayList<>();
        List<Double> first = new ArrayList<>();
        List<Double> cpuAdded = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> allocated = new ArrayList<>();
        List<Double> toMain = new ArrayList<>();
        List<Double> toMainCpu = new ArrayList<>();
        Workload.Kind kind = workload.kind;
        for (int i = 0; i < rounds.size(); i++) {
            RunResult run = rounds.get(i);
            if (!run.ok()) {
                continue;
            }
            allocated.add(run.figure(kind.allocatedKey));
            toMain.add(known(run.figure("jvm_start_to_main_ms")));
            toMainCpu.add(known(run.figure("jvm_start_to_main_cpu_ms")));
            RunResult base = baseline != null && i < baseline.rounds.size() ? baseline.rounds.get(i) : null;
            if (base == null || !base.ok()) {
                continue;
            }
            if (kind.throughputKey != null) {
                throughput.add(Figures.ratio(run.figure(kind.throughputKey), base.figure(kind.throughputKey)));
                first.add(Figures.ratio(run.figure(kind.firstWindowKey), base.figure(kind.firstWindowKey)));
            }
            cpuAdded.add(Figures.difference(run.figure(kind.cpuKey), base.figure(kind.cpuKey)));
            p99.add(Figures.ratio(run.figure(kind.p99Key), base.figure(kind.p99Key)));
        }
        return new Summary(Spread.of(throughput), Spread.of(first), Spread.of(cpuAdded).median(),
                Spread.of(p99).median(), Spread.of(allocated).median(), Spread.of(toMain), Spread.of(toMainCpu));
    }

    /** Each round's CPU per request (us; null for a round without it), in the order the rounds ran. */
    List<Double> cpuByRound() {
        List<Double> cpu = new ArrayList<>();
        for (RunResult run : rounds) {
            cpu.add(run.ok() ? known(run.figure(workload.kind.cpuKey)) : null);
        }
        return cpu;
    }

    /** A figure the sample printed as -1 (unknown here) is left out, as one it did not print. */
    private static Double known(Double figure) {
        return figure == null || figure < 0 ? null : figure;
    }

    /**
     * Medians over rounds (throughput and first window with their range): the table's cells. The
     * time from the JVM's start to the application's main, wall and CPU, is the row's own, not a
     * difference to the baseline: it is the JVM's start-up plus the agent's premain.
     */
    record Summary(Spread throughputRatio, Spread firstWindowRatio, Double cpuAddedUsPerOp, Double p99Ratio,
                   Double allocatedBytesPerOp, Spread toMainMs, Spread toMainCpuMs) {
    }
}
