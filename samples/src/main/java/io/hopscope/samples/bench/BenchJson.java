package io.hopscope.samples.bench;

import io.hopscope.samples.bench.Figures.Spread;
import io.hopscope.samples.bench.RunLauncher.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bench as JSON: settings, machine, one object a row with its summary and every round's raw
 * figures, the analyzer and tracer rows, the targets. Written by hand: the samples carry no JSON
 * library of their own (azure-core's Jackson is its version, not ours to lean on).
 */
final class BenchJson {

    private BenchJson() {
    }

    static String write(BenchResult r) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("command", r.command());
        Machine m = r.machine();
        root.put("machine", map("cpu_model", m.cpuModel(), "cores", m.cores(), "kernel", m.kernel(), "jdk", m.jdk(),
                "load_before", m.loadBefore(), "load_after", m.loadAfter()));
        root.put("settings", map("rounds", r.rounds(), "first_window_s", r.windows().firstS(),
                "warmup_s", r.windows().warmupS(), "duration_s", r.windows().durationS(), "parallel", Workload.PARALLEL));
        List<Object> rows = new ArrayList<>();
        for (Workload w : r.workloads()) {
            for (Configuration c : r.configs()) {
                Row row = r.row(w, c);
                if (row != null) {
                    rows.add(row(r, row));
                }
            }
        }
        root.put("rows", rows);
        List<Object> floors = new ArrayList<>();
        for (Workload w : r.workloads()) {
            AgentFloor floor = AgentFloor.of(r, w);
            if (floor != null) {
                floors.add(floor(r, floor));
            }
        }
        if (!floors.isEmpty()) {
            root.put("agent_floor", floors);
        }
        AnalyzerBench.Result a = r.analyzer();
        root.put("analyzer", a.whyNot() != null ? map("not_measured", a.whyNot())
                : map("recording_s", a.recordingS(), "recording_bytes", a.recordingBytes(),
                        "heaps", a.heaps().stream().map(h -> (Object) map("heap", h.setting(), "report", usage(h.report()),
                                "floor", usage(h.floor()), "report_cpu_over_floor", h.cpuOverFloor(),
                                "report_wall_over_floor", h.wallOverFloor(),
                                "report_runs", h.reports().stream().map(u -> (Object) usage(u)).toList(),
                                "floor_runs", h.floors().stream().map(u -> (Object) usage(u)).toList(),
                                "report_jdk_reader", h.jdkReport() == null ? null : usage(h.jdkReport()),
                                "report_jdk_reader_cpu_over_floor", h.jdkCpuOverFloor(),
                                "report_jdk_reader_wall_over_floor", h.jdkWallOverFloor(),
                                "report_jdk_reader_runs", h.jdkReports().stream().map(u -> (Object) usage(u)).toList()))
                                .toList(),
                        "jfr_summary", usage(a.jfrSummary()), "runs", a.runs(), "report_heap_limit_mb", AnalyzerBench.HEAP_MB,
                        "report_live_heap_mb", a.reportLiveHeapMb()));
        ExportBench.Result e = a.export();
        if (e != null) {
            root.put("export", e.whyNot() != null ? map("not_measured", e.whyNot())
                    : map("recording_bytes", e.recordingBytes(), "report", usage(e.report()), "otlp", usage(e.otlp()),
                            "pprof", usage(e.pprof()), "export_cpu_over_report", e.exportOverReport(),
                            "rounds", e.rounds().stream().map(x -> (Object) map("report", usage(x.report()),
                                    "otlp", usage(x.otlp()), "pprof", usage(x.pprof()))).toList()));
        }
        AllocationBench.Result alloc = a.allocation();
        if (alloc != null) {
            root.put("allocation", alloc.whyNot() != null ? map("not_measured", alloc.whyNot())
                    : map("requests", AllocationBench.REQUESTS, "runs", alloc.runs().stream().map(x -> (Object) map(
                            "client", x.client(), "ops", x.ops(), "process_bytes", x.processBytes(),
                            "requests_bytes", x.requestsBytes(), "sampled_bytes_in_requests", x.sampledBytesInRequests(),
                            "outside_requests_share", x.outsideShare(), "exact_over_sampled", x.exactOverSampled(),
                            "bytes_per_request", x.perRequest(), "process_bytes_per_request", x.processPerRequest()))
                            .toList()));
        }
        TracerBench.Result t = r.tracer();
        root.put("tracer", t.whyNot() != null ? map("not_measured", t.whyNot())
                : map("cost_ns_per_interval", t.costNsPerInterval(), "floor_ns_per_interval", t.floorNsPerInterval(),
                        "above_floor_ns_per_interval", t.aboveFloorNs(), "lost_events", t.lostEvents(),
                        "rounds", t.rounds().stream().map(x -> (Object) map("round", x.round(), "cost_ns", x.tracerNs(),
                                "floor_ns", x.floorNs(), "above_floor_ns", x.aboveFloorNs(), "lost_events", x.lostEvents()))
                                .toList()));
        List<Object> targets = new ArrayList<>();
        for (TargetCheck c : r.targets()) {
            targets.add(map("target", c.target(), "row", c.row(), "value", c.value(), "limit", c.limit(),
                    "at_most", c.atMost(), "met", c.met(), "status", c.status()));
        }
        root.put("targets", targets);
        root.put("elapsed_s", r.elapsedS());
        StringBuilder b = new StringBuilder();
        value(b, root, "");
        return b.append('\n').toString();
    }

    private static Map<String, Object> row(BenchResult r, Row row) {
        Map<String, Object> o = map("workload", row.workload.label, "config", row.config.label,
                "description", row.config.description, "not_measured", row.whyNoFigures());
        Row.Summary s = r.summary(row);
        o.put("summary", map("throughput_ratio", spread(s.throughputRatio()), "first_window_ratio", spread(s.firstWindowRatio()),
                "cpu_us_per_op_added", s.cpuAddedUsPerOp(), "latency_p99_ratio", s.p99Ratio(),
                "allocated_bytes_per_op", s.allocatedBytesPerOp(), "jvm_start_to_main_ms", spread(s.toMainMs()),
                "jvm_start_to_main_cpu_ms", spread(s.toMainCpuMs())));
        List<Object> rounds = new ArrayList<>();
        for (int i = 0; i < row.rounds.size(); i++) {
            RunResult run = row.rounds.get(i);
            rounds.add(map("round", i + 1, "figures", run.figures(), "not_run", run.unavailable(), "error", run.error()));
        }
        o.put("rounds", rounds);
        return o;
    }

    /** Issue #45's floor on one workload: each row's first-window figures by round, and hopscope over the empty agent. */
    private static Map<String, Object> floor(BenchResult r, AgentFloor floor) {
        Row none = r.row(floor.workload(), Configuration.NONE);
        List<Object> rows = new ArrayList<>();
        for (Row row : floor.rows()) {
            List<Double> ratios = AgentFloor.firstWindowRatios(row, none);
            List<Double> cpu = AgentFloor.firstWindowCpu(row);
            List<Double> toMain = AgentFloor.toMainMs(row);
            rows.add(map("config", row.config.label, "first_window_ratio", spread(Spread.of(ratios)),
                    "first_window_cpu_us_per_op", spread(Spread.of(cpu)), "jvm_start_to_main_ms", spread(Spread.of(toMain)),
                    "first_window_ratio_by_round", ratios, "first_window_cpu_us_per_op_by_round", cpu,
                    "jvm_start_to_main_ms_by_round", toMain));
        }
        return map("workload", floor.workload().label, "first_window_s", r.windows().firstS(),
                "hopscope_first_window_over_empty_agent", spread(floor.hopscopeOverEmptyAgentSpread()),
                "hopscope_first_window_over_empty_agent_by_round", floor.hopscopeOverEmptyAgent(), "rows", rows);
    }

    private static Map<String, Object> spread(Spread s) {
        return map("median", s.median(), "min", s.min(), "max", s.max(), "rounds", s.count());
    }

    private static Map<String, Object> usage(TimedProcess.Usage u) {
        return map("wall_s", u.wallS(), "cpu_s", u.cpuS(), "peak_rss_mb", u.peakRssMb());
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    private static void value(StringBuilder b, Object v, String indent) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof Map<?, ?> map) {
            b.append('{');
            String inner = indent + "  ";
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                b.append(first ? "\n" : ",\n").append(inner);
                string(b, e.getKey().toString());
                b.append(": ");
                value(b, e.getValue(), inner);
                first = false;
            }
            b.append(first ? "}" : "\n" + indent + "}");
        } else if (v instanceof List<?> list) {
            b.append('[');
            String inner = indent + "  ";
            for (int i = 0; i < list.size(); i++) {
                b.append(i == 0 ? "\n" : ",\n").append(inner);
                value(b, list.get(i), inner);
            }
            b.append(list.isEmpty() ? "]" : "\n" + indent + "]");
        } else if (v instanceof Double d) {
            b.append(d.isNaN() || d.isInfinite() ? "null" : d == Math.rint(d) && Math.abs(d) < 1e15
                    ? Long.toString(d.longValue()) : d.toString());
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else {
            string(b, v.toString());
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
