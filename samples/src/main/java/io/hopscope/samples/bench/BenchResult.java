package io.hopscope.samples.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything one bench measured, in the order it was asked for: what the writers print. */
record BenchResult(String command, Machine machine, RunLauncher.Windows windows, int rounds, List<Workload> workloads,
                   List<Configuration> configs, Map<String, Row> rows, AnalyzerBench.Result analyzer,
                   TracerBench.Result tracer, double elapsedS) {

    static Map<String, Row> newRows() {
        return new LinkedHashMap<>();
    }

    static String key(Workload w, Configuration c) {
        return w.label + " " + c.label;
    }

    /** The row of a workload and a configuration, or null when it was not part of the bench. */
    Row row(Workload w, Configuration c) {
        return rows.get(key(w, c));
    }

    Row.Summary summary(Row row) {
        return row.summary(row(row.workload, Configuration.NONE));
    }

    List<TargetCheck> targets() {
        return Targets.check(this);
    }
}
