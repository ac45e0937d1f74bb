package io.hopscope.samples.bench;

import io.hopscope.samples.bench.Figures.Spread;
import io.hopscope.samples.bench.RunLauncher.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What any java agent costs a workload's first window (issue #45): none, the empty agent, the agent that only
 * appends a jar to the boot class path, hopscope and the OpenTelemetry agent side by side, each round shown
 * (first-window throughput over none's of the same round, CPU per request in the window, the JVM's start to
 * main), and hopscope's first-window throughput over the empty agent's of the same round: the figure the
 * issue's start-up target is set against, since no agent can start for less than the empty one.
 */
record AgentFloor(Workload workload, List<Row> rows, List<Double> hopscopeOverEmptyAgent) {

    /** The floor's rows in the order they are shown, those the bench ran. */
    static final List<Configuration> CONFIGS = List.of(Configuration.NONE, Configuration.EMPTY_AGENT,
            Configuration.BOOT_APPEND, Configuration.HOPSCOPE, Configuration.HOPSCOPE_BACKGROUND, Configuration.OTEL);
    static final String CPU_KEY = "first_window_cpu_us_per_op";

    /** The floor on {@code w}, or null when the bench ran neither floor agent there (or it has no first window). */
    static AgentFloor of(BenchResult r, Workload w) {
        if (w.kind.firstWindowKey == null
                || r.row(w, Configuration.EMPTY_AGENT) == null && r.row(w, Configuration.BOOT_APPEND) == null) {
            return null;
        }
        List<Row> rows = new ArrayList<>();
        for (Configuration c : CONFIGS) {
            if (r.row(w, c) != null) {
                rows.add(r.row(w, c));
            }
        }
        return new AgentFloor(w, rows, overEmptyAgent(r, w, r.row(w, Configuration.HOPSCOPE)));
    }

    /** Each round's first-window throughput of {@code agent} over the empty agent's (empty when either did not run). */
    static List<Double> overEmptyAgent(BenchResult r, Workload w, Row agent) {
        List<Double> overEmpty = new ArrayList<>();
        Row empty = r.row(w, Configuration.EMPTY_AGENT);
        if (agent != null && empty != null) {
            for (int i = 0; i < agent.rounds.size() && i < empty.rounds.size(); i++) {
                overEmpty.add(Figures.ratio(agent.rounds.get(i).figure(w.kind.firstWindowKey),
                        empty.rounds.get(i).figure(w.kind.firstWindowKey)));
            }
        }
        return overEmpty;
    }

    /** hopscope's first window over the empty agent's: median and range of the rounds that ran both. */
    Spread hopscopeOverEmptyAgentSpread() {
        return Spread.of(hopscopeOverEmptyAgent);
    }

    /** Each round's first-window throughput of {@code row} over none's of the same round (null where unknown). */
    static List<Double> firstWindowRatios(Row row, Row none) {
        List<Double> ratios = new ArrayList<>();
        String key = row.workload.kind.firstWindowKey;
        for (int i = 0; i < row.rounds.size(); i++) {
            RunResult base = none != null && i < none.rounds.size() ? none.rounds.get(i) : null;
            ratios.add(base == null ? null : Figures.ratio(row.rounds.get(i).figure(key), base.figure(key)));
        }
        return ratios;
    }

    /** Each round's CPU per request in the first window (us; null where unknown). */
    static List<Double> firstWindowCpu(Row row) {
        return byRound(row, run -> known(run.figure(CPU_KEY)));
    }

    /** Each round's wall ms from the JVM's start to main (null where unknown). */
    static List<Double> toMainMs(Row row) {
        return byRound(row, run -> known(run.figure("jvm_start_to_main_ms")));
    }

    /**
     * A heading line with hopscope over the empty agent, one line a round with each row's figures, and one of
     * their medians.
     */
    List<String> lines(BenchResult r) {
        Row none = r.row(workload, Configuration.NONE);
        List<String> lines = new ArrayList<>();
        Spread over = hopscopeOverEmptyAgentSpread();
        String labels = String.join(" / ", rows.stream().map(row -> row.config.label).toList());
        lines.add(workload.label + ", the first " + RunLauncher.Windows.fmt(r.windows().firstS()) + " s beside the agent floor ("
                + labels + "): hopscope's first window over the empty agent's "
                + (over.median() == null ? "- (needs hopscope and empty-agent)"
                        : Table.spread(over) + ", by round " + Figures.list(hopscopeOverEmptyAgent, "%.3f")));
        for (int i = 0; i < r.rounds(); i++) {
            int round = i;
            lines.add("  round " + (i + 1) + ": " + figures(row -> at(firstWindowRatios(row, none), round),
                    row -> at(firstWindowCpu(row), round), row -> at(toMainMs(row), round)));
        }
        lines.add("  median: " + figures(row -> median(firstWindowRatios(row, none)), row -> median(firstWindowCpu(row)),
                row -> median(toMainMs(row))));
        return lines;
    }

    private String figures(Function<Row, Double> ratio, Function<Row, Double> cpu, Function<Row, Double> toMain) {
        return "throughput x none " + cells(ratio, "%.3f") + "; CPU us/request " + cells(cpu, "%.1f") + "; to main ms "
                + cells(toMain, "%.0f");
    }

    private String cells(Function<Row, Double> figure, String format) {
        List<String> cells = new ArrayList<>();
        for (Row row : rows) {
            cells.add(Figures.fmt(figure.apply(row), format));
        }
        return String.join(" / ", cells);
    }

    private static List<Double> byRound(Row row, Function<RunResult, Double> figure) {
        List<Double> values = new ArrayList<>();
        for (RunResult run : row.rounds) {
            values.add(run.ok() ? figure.apply(run) : null);
        }
        return values;
    }

    static Double median(List<Double> values) {
        return Spread.of(values).median();
    }

    private static Double at(List<Double> values, int i) {
        return i < values.size() ? values.get(i) : null;
    }

    /** A figure the sample printed as -1 (unknown here) is left out. */
    private static Double known(Double figure) {
        return figure == null || figure < 0 ? null : figure;
    }
}
