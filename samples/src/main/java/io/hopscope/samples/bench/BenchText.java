package io.hopscope.samples.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The bench as people read it: the table, the analyzer and tracer lines, the targets; as text or markdown. */
final class BenchText {

    private BenchText() {
    }

    static String text(BenchResult r) {
        StringBuilder b = new StringBuilder();
        b.append(Table.text(Table.header(r), Table.rows(r)));
        b.append('\n');
        for (String line : serverLines(r)) {
            b.append(line).append('\n');
        }
        for (String line : liveLines(r)) {
            b.append(line).append('\n');
        }
        for (String line : floorLines(r)) {
            b.append(line).append('\n');
        }
        for (String line : toolLines(r)) {
            b.append(line).append('\n');
        }
        b.append("\ntargets:\n");
        for (TargetCheck t : r.targets()) {
            b.append("  ").append(t.target()).append(" [").append(t.row()).append("]: ").append(t.valueText())
                    .append(", target ").append(t.limitText()).append(": ").append(t.status()).append('\n');
        }
        b.append('\n').append(machineLines(r));
        return b.toString();
    }

    /** The markdown that goes between the bench markers of docs/performance.md. */
    static String markdown(BenchResult r) {
        StringBuilder b = new StringBuilder();
        b.append("Measured by `bench` (").append(r.rounds()).append(r.rounds() == 1 ? " round" : " rounds, interleaved")
                .append("; each run: the first ").append(RunLauncher.Windows.fmt(r.windows().firstS()))
                .append(" s, then ").append(RunLauncher.Windows.fmt(r.windows().durationS())).append(" s after ")
                .append(RunLauncher.Windows.fmt(r.windows().warmupS())).append(" s of warm-up; ratios are to `none` in the same round):\n\n");
        b.append("```\n").append(r.command()).append("\n```\n\n");
        b.append(Table.markdown(Table.header(r), Table.rows(r))).append('\n');
        for (String line : serverLines(r)) {
            b.append("- ").append(line).append('\n');
        }
        for (String line : liveLines(r)) {
            b.append("- ").append(line).append('\n');
        }
        for (String line : floorLines(r)) {
            b.append("- ").append(line).append('\n');
        }
        for (String line : toolLines(r)) {
            b.append("- ").append(line).append('\n');
        }
        b.append("\nTargets, each computed from the figures above:\n\n");
        List<List<String>> targets = new ArrayList<>();
        for (TargetCheck t : r.targets()) {
            targets.add(List.of(t.target(), t.row(), t.valueText(), t.limitText(), t.status()));
        }
        b.append(Table.markdown(List.of("target", "row", "measured", "target", "status"), targets)).append('\n');
        for (String line : machineLines(r).split("\n")) {
            b.append("- ").append(line).append('\n');
        }
        return b.toString();
    }

    /**
     * The README's short form: hopscope beside the OpenTelemetry agent on each workload, and how
     * many targets are met, each missed one named; the whole table is in docs/performance.md.
     */
    static String summaryMarkdown(BenchResult r) {
        StringBuilder b = new StringBuilder();
        String first = RunLauncher.Windows.fmt(r.windows().firstS());
        b.append("Throughput with the agent over throughput without it (median of ").append(r.rounds())
                .append(" interleaved rounds; steady state after ").append(RunLauncher.Windows.fmt(r.windows().warmupS()))
                .append(" s, and the first ").append(first).append(" s), and the CPU it adds to a request:\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (Workload w : r.workloads()) {
            Row hopscope = r.row(w, Configuration.HOPSCOPE);
            Row otel = r.row(w, Configuration.OTEL);
            if (hopscope == null && otel == null) {
                continue;
            }
            List<String> cells = new ArrayList<>(List.of(w.label));
            for (Row row : new Row[] {hopscope, otel}) {
                Row.Summary s = row == null || row.whyNoFigures() != null ? null : r.summary(row);
                cells.add(s == null ? "-" : ratio(s.throughputRatio().median()));
                cells.add(s == null ? "-" : ratio(s.firstWindowRatio().median()));
                cells.add(s == null || s.cpuAddedUsPerOp() == null ? "-"
                        : String.format(Locale.ROOT, "%+.1f us", s.cpuAddedUsPerOp()));
            }
            rows.add(cells);
        }
        b.append(Table.markdown(List.of("workload", "hopscope", "first " + first + " s", "CPU/req", "OpenTelemetry agent",
                "first " + first + " s", "CPU/req"), rows)).append('\n');
        for (Workload w : r.workloads()) {
            if (w.kind == Workload.Kind.SERVE && (r.row(w, Configuration.HOPSCOPE) != null || r.row(w, Configuration.OTEL) != null)) {
                b.append(w.label).append(" is inbound requests at a fixed rate (an open loop): its figure is the service's CPU per"
                        + " request.\n\n");
            }
        }
        int met = 0;
        int unmeasured = 0;
        List<String> missed = new ArrayList<>();
        for (TargetCheck t : r.targets()) {
            if (t.met()) {
                met++;
            } else if (t.notMeasured() != null) {
                unmeasured++;
            } else {
                missed.add(t.target() + " [" + t.row() + "]: " + t.valueText() + ", " + t.status());
            }
        }
        b.append("Targets: ").append(met).append(" met, ").append(missed.size()).append(" not met, ").append(unmeasured)
                .append(" not measured (see docs/performance.md)").append(missed.isEmpty() ? ".\n" : "; not met:\n\n");
        for (String m : missed) {
            b.append("- ").append(m).append('\n');
        }
        b.append("\nMeasured with `").append(r.command()).append("` on ").append(r.machine().cpuModel()).append(", ")
                .append(r.machine().cores()).append(" cores.\n");
        return b.toString();
    }

    private static String ratio(Double x) {
        return x == null ? "-" : String.format(Locale.ROOT, "%.3f", x);
    }

    /**
     * Each open-loop (serve) workload's figure, every round shown: the service JVM's CPU per inbound
     * request under each configuration, then what each adds over {@code none} (the median of the rounds'
     * differences, as in the table).
     */
    static List<String> serverLines(BenchResult r) {
        List<String> lines = new ArrayList<>();
        for (Workload w : r.workloads()) {
            if (w.kind != Workload.Kind.SERVE) {
                continue;
            }
            List<Row> rows = new ArrayList<>();
            for (Configuration c : r.configs()) {
                if (r.row(w, c) != null) {
                    rows.add(r.row(w, c));
                }
            }
            if (rows.isEmpty()) {
                continue;
            }
            List<String> rounds = new ArrayList<>();
            for (int i = 0; i < r.rounds(); i++) {
                List<String> cells = new ArrayList<>();
                for (Row row : rows) {
                    List<Double> cpu = row.cpuByRound();
                    cells.add(i < cpu.size() && cpu.get(i) != null ? String.format(Locale.ROOT, "%.1f", cpu.get(i)) : "-");
                }
                rounds.add(String.join(" / ", cells));
            }
            List<String> added = new ArrayList<>();
            for (Row row : rows) {
                if (row.config != Configuration.NONE) {
                    Double cpu = r.summary(row).cpuAddedUsPerOp();
                    added.add(row.config.label + " " + (cpu == null ? "-" : String.format(Locale.ROOT, "%+.1f", cpu)));
                }
            }
            lines.add(w.label + ": the service JVM's CPU per inbound request (us) by round, "
                    + String.join(" / ", rows.stream().map(row -> row.config.label).toList()) + ": "
                    + String.join(", ", rounds) + (added.isEmpty() ? "" : "; added (median): " + String.join(", ", added)));
        }
        return lines;
    }

    /** Each workload watched by hopscope live against the same agent unwatched ({@link LiveCost}), every round. */
    static List<String> liveLines(BenchResult r) {
        List<String> lines = new ArrayList<>();
        for (Workload w : r.workloads()) {
            LiveCost cost = LiveCost.of(r, w);
            if (cost != null) {
                lines.add(cost.line());
            }
        }
        return lines;
    }

    /** Each workload's first window beside the agent floor ({@link AgentFloor}), when empty-agent or boot-append ran. */
    static List<String> floorLines(BenchResult r) {
        List<String> lines = new ArrayList<>();
        for (Workload w : r.workloads()) {
            AgentFloor floor = AgentFloor.of(r, w);
            if (floor != null) {
                lines.addAll(floor.lines(r));
            }
        }
        return lines;
    }

    static List<String> toolLines(BenchResult r) {
        List<String> lines = new ArrayList<>();
        AnalyzerBench.Result a = r.analyzer();
        if (a.whyNot() != null) {
            lines.add("analyzer: not measured: " + a.whyNot());
        } else {
            lines.add(String.format(Locale.ROOT, "analyzer on a %.0f s recording of %s (%.0f MB), medians of %d runs, report and"
                            + " floor compared only under the same heap: %.0f MB heap at most after a GC (-Xmx%dm); jfr summary %.1f s"
                            + " CPU, %.0f MB",
                    a.recordingS(), Workload.OKHTTP_SYNC_1K.label, a.recordingBytes() / 1e6, a.runs(), a.reportLiveHeapMb(),
                    AnalyzerBench.HEAP_MB, a.jfrSummary().cpuS(), a.jfrSummary().peakRssMb()));
            for (AnalyzerBench.AtHeap h : a.heaps()) {
                lines.add(String.format(Locale.ROOT, "  %s: hopscope report (direct reader) %.2f s CPU, %.2f s wall, %.0f MB"
                                + " peak RSS; bare jdk.jfr.consumer floor %.2f s CPU, %.2f s wall, %.0f MB; report / floor %.2fx"
                                + " CPU, %.2fx wall; runs (CPU s, report/floor): %s",
                        h.setting(), h.report().cpuS(), h.report().wallS(), h.report().peakRssMb(), h.floor().cpuS(),
                        h.floor().wallS(), h.floor().peakRssMb(), h.cpuOverFloor(), h.wallOverFloor(), runs(h)));
                if (h.jdkReport() != null) {
                    lines.add(String.format(Locale.ROOT, "  %s: hopscope report --reader jdk %.2f s CPU, %.2f s wall, %.0f MB"
                                    + " peak RSS; over the floor %.2fx CPU, %.2fx wall; runs (CPU s): %s",
                            h.setting(), h.jdkReport().cpuS(), h.jdkReport().wallS(), h.jdkReport().peakRssMb(),
                            h.jdkCpuOverFloor(), h.jdkWallOverFloor(), h.jdkReports().stream()
                                    .map(u -> String.format(Locale.ROOT, "%.2f", u.cpuS())).collect(Collectors.joining(", "))));
                }
            }
        }
        if (a.export() != null) {
            lines.add(exportLine(a.export()));
        }
        if (a.allocation() != null) {
            lines.add(AllocationBench.line(a.allocation()));
        }
        lines.add(tracerLine(r.tracer()));
        return lines;
    }

    private static String runs(AnalyzerBench.AtHeap h) {
        List<String> runs = new ArrayList<>();
        for (int i = 0; i < h.reports().size(); i++) {
            runs.add(String.format(Locale.ROOT, "%.2f/%.2f", h.reports().get(i).cpuS(),
                    i < h.floors().size() ? h.floors().get(i).cpuS() : Double.NaN));
        }
        return String.join(", ", runs);
    }

    /** export against report on the demo's Netty recording, every round shown. */
    static String exportLine(ExportBench.Result e) {
        if (e.whyNot() != null) {
            return "export: not measured: " + e.whyNot();
        }
        StringBuilder rounds = new StringBuilder();
        for (ExportBench.Round round : e.rounds()) {
            rounds.append(rounds.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.2f / %.2f / %.2f",
                    round.report().cpuS(), round.otlp().cpuS(), round.pprof().cpuS()));
        }
        return String.format(Locale.ROOT, "export on the demo's Netty recording (%.1f MB), CPU s of report / export otlp /"
                        + " export pprof by round: %s; medians %.2f / %.2f / %.2f; export / report %.2fx",
                e.recordingBytes() / 1e6, rounds, e.report().cpuS(), e.otlp().cpuS(), e.pprof().cpuS(), e.exportOverReport());
    }

    /** The eBPF tracer beside its floor, every round shown. */
    static String tracerLine(TracerBench.Result t) {
        if (t.whyNot() != null) {
            return "eBPF tracer: not measured: " + t.whyNot();
        }
        StringBuilder rounds = new StringBuilder();
        for (TracerBench.Round round : t.rounds()) {
            rounds.append(rounds.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%+.0f / %+.0f / %+.0f%s",
                    round.tracerNs(), round.floorNs(), round.aboveFloorNs(),
                    round.lostEvents() == 0 ? "" : " (" + round.lostEvents() + " lost)"));
        }
        return String.format(Locale.ROOT, "eBPF tracer (bpf/bench/switchcost.py --empty, %d interleaved round(s)): offwake costs"
                + " %+.0f ns per off-CPU interval, the empty programs on its tracepoints (the floor) %+.0f, offwake above the floor"
                + " of its round %+.0f (medians); each round, offwake / floor / above: %s; %d events lost",
                t.rounds().size(), t.costNsPerInterval(), t.floorNsPerInterval(), t.aboveFloorNs(), rounds, t.lostEvents());
    }

    /** {@code bench --allocation-only}'s markdown: the allocation line, its targets, the command and the machine. */
    static String allocationMarkdown(AllocationBench.Result a, String command, Machine machine, double elapsedS) {
        return onlyMarkdown("bench --allocation-only", AllocationBench.line(a), Targets.allocation(a), command, machine, true,
                elapsedS);
    }

    /** One row's markdown alone (its line, its targets, the command and the machine; its JDK where it matters). */
    private static String onlyMarkdown(String what, String line, List<TargetCheck> checks, String command, Machine machine,
                                       boolean withJdk, double elapsedS) {
        StringBuilder b = new StringBuilder("Measured by `" + what + "`:\n\n```\n").append(command).append("\n```\n\n");
        b.append("- ").append(line).append("\n\n");
        List<List<String>> targets = new ArrayList<>();
        for (TargetCheck c : checks) {
            targets.add(List.of(c.target(), c.row(), c.valueText(), c.limitText(), c.status()));
        }
        b.append(Table.markdown(List.of("target", "row", "measured", "target", "status"), targets)).append('\n');
        b.append("- machine: ").append(machine.cpuModel()).append(", ").append(machine.cores()).append(" cores, ")
                .append(machine.kernel()).append('\n');
        if (withJdk) {
            b.append("- JDK: ").append(machine.jdk()).append('\n');
        }
        b.append("- load average before: ").append(machine.loadBefore()).append(", after: ").append(machine.loadAfter()).append('\n');
        b.append(String.format(Locale.ROOT, "- took %.0f s%n", elapsedS));
        return b.toString();
    }

    /** {@code bench --tracer-only}'s markdown: the tracer line, its targets, the command and the machine. */
    static String tracerMarkdown(TracerBench.Result t, String command, Machine machine, double elapsedS) {
        return onlyMarkdown("bench --tracer-only", tracerLine(t), Targets.tracer(t), command, machine, false, elapsedS);
    }

    static String machineLines(BenchResult r) {
        Machine m = r.machine();
        return "machine: " + m.cpuModel() + ", " + m.cores() + " cores, " + m.kernel() + "\n"
                + "JDK: " + m.jdk() + "\n"
                + "load average before: " + m.loadBefore() + ", after: " + m.loadAfter() + "\n"
                + String.format(Locale.ROOT, "took %.0f s%n", r.elapsedS());
    }
}
