package io.hopscope.samples.bench;

import static io.hopscope.samples.bench.FiguresTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each target's status is computed from the figures: met, not met by how much, or not measured and why. */
class TargetsTest {

    @Test
    void statusSaysByHowMuchATargetIsMissed() {
        assertThat(TargetCheck.atLeast("t", "r", 0.95, 0.97, "", null).status()).isEqualTo("not met by 0.020");
        assertThat(TargetCheck.atLeast("t", "r", 0.97, 0.97, "", null).status()).isEqualTo("met");
        assertThat(TargetCheck.atMost("t", "r", 1430.0, 1000, " ns", null).status()).isEqualTo("not met by 430.0 ns");
        assertThat(TargetCheck.atMost("t", "r", 3.2, 4.8, " us", null).status()).isEqualTo("met");
        assertThat(TargetCheck.atMost("t", "r", null, 1.5, "x", "no root").status()).isEqualTo("not measured: no root");
        assertThat(TargetCheck.atMost("t", "r", null, 1.5, "x", "no root").met()).isFalse();
    }

    @Test
    void agentTargetsComeFromTheRowsFigures() {
        Row none = FiguresTest.row(Configuration.NONE, run(1000, 1000, 40, 2000, 9000));
        // Steady 0.96 of baseline: 0.01 short of 0.97; first window 0.92: met; 5 us added against OTel's 9.
        Row agent = FiguresTest.row(Configuration.HOPSCOPE, withMain(run(960, 920, 45, 2100, 9600), 900, 1500));
        Row otel = FiguresTest.row(Configuration.OTEL, withMain(run(830, 600, 49, 2500, 12000), 1400, 2600));
        BenchResult result = result(List.of(none, agent, otel),
                new AnalyzerBench.Result(60, 1, 195_000_000,
                        new AnalyzerBench.AtHeap(AnalyzerBench.BOUNDED, List.of(new TimedProcess.Usage(20, 30, 400)),
                                List.of(new TimedProcess.Usage(8, 12, 300))),
                        new AnalyzerBench.AtHeap(AnalyzerBench.DEFAULT_HEAP, List.of(new TimedProcess.Usage(6, 14, 500)),
                                List.of(new TimedProcess.Usage(8, 12, 300))),
                        new TimedProcess.Usage(2, 3, 100), 180.5, null, false),
                new TracerBench.Result(List.of(new TracerBench.Round(1, 1430, 700, 0), new TracerBench.Round(2, 1500, 1000, 0),
                        new TracerBench.Round(3, 900, 650, 0)), null));

        Map<String, String> status = statusByTarget(result.targets());

        // Each heap setting's report against its own floor: 30/12 s CPU and 20/8 s wall under 256 MB, 14/12 and 6/8 at
        // the default heap.
        assertThat(analyzerStatus(result.targets())).containsExactly(
                "analyzer report CPU over the bare jdk.jfr.consumer floor, same heap [analyzer, -Xmx256m]: not met by 1.200x",
                "analyzer report wall time over the bare single-threaded floor's, same heap [analyzer, -Xmx256m]: not met by 1.500x",
                "analyzer report CPU over the bare jdk.jfr.consumer floor, same heap [analyzer, default heap]: met",
                "analyzer report wall time over the bare single-threaded floor's, same heap [analyzer, default heap]: met",
                "analyzer report heap after GC, at most (within -Xmx256m) [analyzer]: met");
        assertThat(status).containsEntry("agent CPU added per request <= OTel's", "met")
                .containsEntry("agent steady-state throughput ratio", "not met by 0.010")
                .containsEntry("agent first-window throughput ratio", "met")
                // Main after 900 ms under the agent, 1,400 under OTel's.
                .containsEntry("agent JVM start to main <= OTel's", "met")
                .containsEntry("analyzer report heap after GC, at most (within -Xmx256m)", "met")
                // Above the floor of each round: 730, 500, 250; the median 500.
                .containsEntry("eBPF tracer cost per off-CPU interval above the empty-program floor", "not met by 200.0 ns")
                .containsEntry("eBPF tracer lost events", "met");
    }

    @Test
    void exportTargetComparesTheDearerExportsMedianWithTheReportsAndTheLineShowsEveryRound() {
        Row none = FiguresTest.row(Configuration.NONE, run(1000, 1000, 40, 2000, 9000));
        ExportBench.Result export = new ExportBench.Result(2_100_000, List.of(
                new ExportBench.Round(usage(1.5), usage(2.0), usage(1.9)),
                new ExportBench.Round(usage(1.4), usage(1.6), usage(1.8)),
                new ExportBench.Round(usage(1.6), usage(1.7), usage(2.1))), null);
        BenchResult result = result(List.of(none),
                new AnalyzerBench.Result(60, 1, 195_000_000,
                        new AnalyzerBench.AtHeap(AnalyzerBench.BOUNDED, List.of(usage(30)), List.of(usage(12))),
                        new AnalyzerBench.AtHeap(AnalyzerBench.DEFAULT_HEAP, List.of(usage(30)), List.of(usage(12))),
                        usage(3), 180.5, null, false)
                        .withExport(export), TracerBench.Result.notMeasured("skipped"));

        // Medians: report 1.5, otlp 1.7, pprof 1.9: the dearer export over the report, 1.9 / 1.5.
        assertThat(statusByTarget(result.targets()))
                .containsEntry("export CPU over report's on the demo's Netty recording", "not met by 0.267x");
        assertThat(BenchText.toolLines(result)).contains("export on the demo's Netty recording (2.1 MB), CPU s of report /"
                + " export otlp / export pprof by round: 1.50 / 2.00 / 1.90, 1.40 / 1.60 / 1.80, 1.60 / 1.70 / 2.10;"
                + " medians 1.50 / 1.70 / 1.90; export / report 1.27x");
        assertThat(BenchJson.write(result)).contains("\"export_cpu_over_report\"");

        ExportBench.Result failed = new ExportBench.Result(0, List.of(), "recording the demo's Netty run failed");
        assertThat(BenchText.exportLine(failed)).isEqualTo("export: not measured: recording the demo's Netty run failed");
        assertThat(failed.exportOverReport()).isNull();
    }

    private static TimedProcess.Usage usage(double cpuS) {
        return new TimedProcess.Usage(cpuS, cpuS, 100);
    }

    @Test
    void targetsWithoutTheirFiguresSayWhy() {
        Row none = FiguresTest.row(Configuration.NONE, run(1000, 1000, 40, 2000, 9000));
        Row agent = FiguresTest.row(Configuration.HOPSCOPE, run(990, 950, 45, 2100, 9600));
        BenchResult result = result(List.of(none, agent),
                new AnalyzerBench.Result(60, 0, 0, null, null, null, Double.NaN, "skipped by --quick", false),
                TracerBench.Result.notMeasured("not running as root, which loading BPF programs needs"));

        Map<String, String> status = statusByTarget(result.targets());

        assertThat(result.targets().get(0).limitText()).isEqualTo("-");
        assertThat(status).containsEntry("agent CPU added per request <= OTel's", "not measured: otel not in --configs")
                .containsEntry("agent steady-state throughput ratio", "met")
                .containsEntry("agent JVM start to main <= OTel's", "not measured: otel not in --configs")
                .containsEntry("analyzer report CPU over the bare jdk.jfr.consumer floor, same heap",
                        "not measured: skipped by --quick")
                .containsEntry("eBPF tracer cost per off-CPU interval above the empty-program floor",
                        "not measured: not running as root, which loading BPF programs needs");
    }

    @Test
    void aReportOutOfHeapMissesTheHeapTargetRatherThanGoingUnmeasured() {
        Row none = FiguresTest.row(Configuration.NONE, run(1000, 1000, 40, 2000, 9000));
        BenchResult result = result(List.of(none),
                new AnalyzerBench.Result(60, 1, 0, null, null, null, Double.NaN,
                        "hopscope report ran out of -Xmx256m; see report.log", true),
                TracerBench.Result.notMeasured("skipped"));

        assertThat(statusByTarget(result.targets()))
                .containsEntry("analyzer report heap after GC, at most (within -Xmx256m)",
                        "not met: hopscope report ran out of -Xmx256m; see report.log")
                .containsEntry("analyzer report CPU over the bare jdk.jfr.consumer floor, same heap",
                        "not measured: hopscope report ran out of -Xmx256m; see report.log");
    }

    @Test
    void theTimeToMainIsTheRowsOwnAndAMissingFigureIsLeftOut() {
        // Round 1 printed no figure (a sample before the figure existed), round 2 an unknown CPU (-1).
        Row agent = FiguresTest.row(Configuration.HOPSCOPE, run(960, 920, 45, 2100, 9600),
                withMain(run(960, 920, 45, 2100, 9600), 700, -1), withMain(run(960, 920, 45, 2100, 9600), 900, 1500));

        Row.Summary s = agent.summary(null);

        assertThat(s.toMainMs().count()).isEqualTo(2);
        assertThat(s.toMainMs().median()).isEqualTo(800.0);
        assertThat(s.toMainCpuMs().count()).isEqualTo(1);
        assertThat(Table.toMain(s)).isEqualTo("800 (1500)");
        assertThat(Table.toMain(FiguresTest.row(Configuration.NONE, run(1, 1, 1, 1, 1)).summary(null))).isEqualTo("-");
    }

    @Test
    void theServerRowsTargetIsHalfOtelsCpuAddedAndItsLineShowsEveryRound() {
        // CPU per inbound request by round: none 600 and 640, hopscope 700 and 760, otel 900 and 1000.
        Row none = serveRow(Configuration.NONE, serve(600, 9000), serve(640, 9100));
        Row agent = serveRow(Configuration.HOPSCOPE, serve(700, 9500), serve(760, 9900));
        Row otel = serveRow(Configuration.OTEL, serve(900, 12000), serve(1000, 13000));
        BenchResult result = result(List.of(Workload.SERVE_POOL), List.of(none, agent, otel), 2,
                new AnalyzerBench.Result(60, 0, 0, null, null, null, Double.NaN, "skipped by --no-tools", false),
                TracerBench.Result.notMeasured("skipped"));

        // Added, the median of the rounds: hopscope (100 + 120) / 2 = 110, otel (300 + 360) / 2 = 330, half of it 165.
        List<TargetCheck> server = result.targets().stream().filter(t -> t.row().equals("serve-pool-400")).toList();
        assertThat(server).hasSize(1);
        assertThat(server.get(0).target()).isEqualTo("agent CPU added per inbound request <= half OTel's");
        assertThat(server.get(0).valueText()).isEqualTo("110.0 us");
        assertThat(server.get(0).limitText()).isEqualTo("<= 165.0 us");
        assertThat(server.get(0).status()).isEqualTo("met");
        assertThat(BenchText.serverLines(result)).containsExactly("serve-pool-400: the service JVM's CPU per inbound request"
                + " (us) by round, none / hopscope / otel: 600.0 / 700.0 / 900.0, 640.0 / 760.0 / 1000.0; added (median):"
                + " hopscope +110.0, otel +330.0");
        // An open loop has no throughput of its own: those cells are empty; the CPU, the client's p99 (9500 / 9000 and
        // 9900 / 9100: 1.07 at the median) and the allocation (730 at the median) are there.
        assertThat(Table.rows(result).get(1)).containsExactly("serve-pool-400", "hopscope", "-", "-", "+110.0", "1.07",
                "730", "-", "");
        assertThat(BenchText.text(result)).contains("agent CPU added per inbound request <= half OTel's [serve-pool-400]:"
                + " 110.0 us, target <= 165.0 us: met");
        assertThat(BenchText.summaryMarkdown(result)).contains("| serve-pool-400 | - | - | +110.0 us | - | - | +330.0 us |\n",
                "serve-pool-400 is inbound requests at a fixed rate (an open loop): its figure is the service's CPU per request.");
    }

    @Test
    void theServerRowMissesItsTargetByWhatItAddsOverHalfOtels() {
        Row none = serveRow(Configuration.NONE, serve(600, 9000));
        Row agent = serveRow(Configuration.HOPSCOPE, serve(800, 9500));
        Row otel = serveRow(Configuration.OTEL, serve(900, 12000));
        BenchResult result = result(List.of(Workload.SERVE_POOL), List.of(none, agent, otel), 1,
                new AnalyzerBench.Result(60, 0, 0, null, null, null, Double.NaN, "skipped by --no-tools", false),
                TracerBench.Result.notMeasured("skipped"));

        // 200 added against half of OTel's 300.
        assertThat(statusByTarget(result.targets()))
                .containsEntry("agent CPU added per inbound request <= half OTel's", "not met by 50.0 us")
                .doesNotContainKey("agent CPU added per request <= OTel's")
                .doesNotContainKey("agent first-window throughput ratio");
    }

    @Test
    void theWatchedTargetIsComparedWithTheSameAgentUnwatchedRoundByRound() {
        Row none = FiguresTest.row(Configuration.NONE, run(1000, 1000, 40, 2000, 9000), run(1100, 1000, 40, 2000, 9000));
        Row unwatched = FiguresTest.row(Configuration.HOPSCOPE_UNWATCHED, run(950, 900, 45, 2100, 9600),
                run(900, 900, 48, 2100, 9600));
        // Round 1: 0.98 of unwatched, +1 us; round 2: 0.95, +4 us. live's own 12 and 14 us a watched request.
        Row live = FiguresTest.row(Configuration.HOPSCOPE_LIVE, withLive(run(931, 800, 46, 2300, 9700), 12),
                withLive(run(855, 800, 52, 2300, 9700), 14));
        BenchResult result = result(List.of(Workload.OKHTTP_SYNC_64K), List.of(none, unwatched, live), 2,
                new AnalyzerBench.Result(60, 1, 0, null, null, null, Double.NaN, "skipped", false),
                TracerBench.Result.notMeasured("skipped"));
        assertThat(statusByTarget(result.targets()))
                .containsEntry("target's throughput watched by live over unwatched", "not met by 0.005");
        assertThat(BenchText.liveLines(result)).containsExactly("okhttp-sync-64k watched by hopscope live --otlp: the target's"
                + " throughput watched / unwatched by round 0.980, 0.950 (median 0.965); the target's CPU added by being"
                + " watched, us/request, +1.0, +4.0 (median +2.5); live's own CPU per watched request, us, 12.0, 14.0 (median"
                + " 13.0, from its 10th second on)");
        assertThat(BenchText.markdown(result)).contains("- okhttp-sync-64k watched by hopscope live --otlp:");
    }

    @Test
    void theFloorShowsEveryRoundAndHopscopeOverTheEmptyAgentIsATarget() {
        // First-window ops/s by round: none 1000 and 800, empty-agent 900 and 800, hopscope 720 and 760 (0.800 and
        // 0.950 of the empty agent's: median 0.875); boot-append's round 2 failed.
        Row none = FiguresTest.row(Configuration.NONE, floorRun(1000, 100, 80), floorRun(800, 110, 90));
        Row empty = FiguresTest.row(Configuration.EMPTY_AGENT, floorRun(900, 105, 100), floorRun(800, 112, 110));
        Row bootAppend = FiguresTest.row(Configuration.BOOT_APPEND, floorRun(850, 115, 120),
                RunLauncher.RunResult.failed("exit 1"));
        Row agent = FiguresTest.row(Configuration.HOPSCOPE, floorRun(720, 150, 1600), floorRun(760, 140, 1700));
        BenchResult result = result(List.of(Workload.OKHTTP_SYNC_64K), List.of(none, empty, bootAppend, agent), 2,
                new AnalyzerBench.Result(60, 0, 0, null, null, null, Double.NaN, "skipped by --no-tools", false),
                TracerBench.Result.notMeasured("skipped"));

        assertThat(BenchText.floorLines(result)).containsExactly(
                "okhttp-sync-64k, the first 10 s beside the agent floor (none / empty-agent / boot-append / hopscope):"
                        + " hopscope's first window over the empty agent's 0.875 (0.800-0.950), by round 0.800, 0.950",
                "  round 1: throughput x none 1.000 / 0.900 / 0.850 / 0.720; CPU us/request 100.0 / 105.0 / 115.0 / 150.0;"
                        + " to main ms 80 / 100 / 120 / 1600",
                "  round 2: throughput x none 1.000 / 1.000 / - / 0.950; CPU us/request 110.0 / 112.0 / - / 140.0;"
                        + " to main ms 90 / 110 / - / 1700",
                "  median: throughput x none 1.000 / 0.950 / 0.850 / 0.835; CPU us/request 105.0 / 108.5 / 115.0 / 145.0;"
                        + " to main ms 85 / 105 / 120 / 1650");
        TargetCheck over = result.targets().stream()
                .filter(t -> t.target().equals("agent first-window throughput over the empty agent's")).findFirst().orElseThrow();
        assertThat(over.valueText()).isEqualTo("0.875");
        assertThat(over.limitText()).isEqualTo(">= 0.950");
        assertThat(over.status()).isEqualTo("not met by 0.075");
        assertThat(BenchText.text(result)).contains("\nokhttp-sync-64k, the first 10 s beside the agent floor");
        assertThat(BenchText.markdown(result)).contains("\n-   round 1: throughput x none 1.000 / 0.900");
        String json = BenchJson.write(result);
        assertThat(json).contains("\"agent_floor\": [", "\"hopscope_first_window_over_empty_agent\": {\n",
                "\"hopscope_first_window_over_empty_agent_by_round\": [\n", "\"first_window_cpu_us_per_op_by_round\": [\n");
        assertThat(json).containsPattern("\"config\": \"boot-append\",\\s+\"first_window_ratio\": \\{\\s+\"median\": 0.85,");
    }

    @Test
    void theTimeToMainIsHeldAgainstTheEmptyAgentsForBothWaysOfStarting() {
        // To main, ms by round: empty-agent 100 and 110 (median 105), hopscope 1600 and 1700 (1650), hopscope-bg 120
        // and 150 (135). First-window ops/s: empty-agent 900 and 800, hopscope-bg 900 and 720 (1.000 and 0.900).
        Row none = FiguresTest.row(Configuration.NONE, floorRun(1000, 100, 80), floorRun(800, 110, 90));
        Row empty = FiguresTest.row(Configuration.EMPTY_AGENT, floorRun(900, 105, 100), floorRun(800, 112, 110));
        Row agent = FiguresTest.row(Configuration.HOPSCOPE, floorRun(720, 150, 1600), floorRun(760, 140, 1700));
        Row background = FiguresTest.row(Configuration.HOPSCOPE_BACKGROUND, floorRun(900, 130, 120),
                floorRun(720, 150, 150));
        BenchResult result = result(List.of(Workload.OKHTTP_SYNC_64K), List.of(none, empty, agent, background), 2,
                new AnalyzerBench.Result(60, 0, 0, null, null, null, Double.NaN, "skipped by --no-tools", false),
                TracerBench.Result.notMeasured("skipped"));

        Map<String, TargetCheck> toMain = new java.util.TreeMap<>();
        Map<String, TargetCheck> overEmpty = new java.util.TreeMap<>();
        for (TargetCheck t : result.targets()) {
            if (t.target().equals("agent JVM start to main over the empty agent's")) {
                toMain.put(t.row(), t);
            } else if (t.target().equals("agent first-window throughput over the empty agent's")) {
                overEmpty.put(t.row(), t);
            }
        }
        assertThat(toMain.keySet()).containsExactly("okhttp-sync-64k", "okhttp-sync-64k, hopscope-bg");
        assertThat(toMain.get("okhttp-sync-64k").valueText()).isEqualTo("1545.0 ms");
        assertThat(toMain.get("okhttp-sync-64k").status()).isEqualTo("not met by 1245.0 ms");
        assertThat(toMain.get("okhttp-sync-64k, hopscope-bg").valueText()).isEqualTo("30.0 ms");
        assertThat(toMain.get("okhttp-sync-64k, hopscope-bg").limitText()).isEqualTo("<= 300.0 ms");
        assertThat(toMain.get("okhttp-sync-64k, hopscope-bg").status()).isEqualTo("met");
        assertThat(overEmpty.get("okhttp-sync-64k, hopscope-bg").valueText()).isEqualTo("0.950");
        assertThat(overEmpty.get("okhttp-sync-64k, hopscope-bg").status()).isEqualTo("met");
        assertThat(BenchText.floorLines(result).get(0)).contains("(none / empty-agent / hopscope / hopscope-bg)");
    }

    @Test
    void withoutTheEmptyAgentTheFloorTargetIsNotMeasuredAndNoFloorIsShown() {
        Row none = FiguresTest.row(Configuration.NONE, floorRun(1000, 100, 80));
        Row agent = FiguresTest.row(Configuration.HOPSCOPE, floorRun(720, 150, 1600));
        BenchResult result = result(List.of(none, agent),
                new AnalyzerBench.Result(60, 0, 0, null, null, null, Double.NaN, "skipped by --no-tools", false),
                TracerBench.Result.notMeasured("skipped"));

        assertThat(statusByTarget(result.targets())).containsEntry("agent first-window throughput over the empty agent's",
                "not measured: empty-agent not in --configs").containsEntry("agent JVM start to main over the empty agent's",
                "not measured: empty-agent not in --configs");
        assertThat(BenchText.floorLines(result)).isEmpty();
        assertThat(BenchJson.write(result)).doesNotContain("agent_floor");
    }

    /** A pipeline run's first-window figures (ops/s, CPU us per request) and its time to main. */
    private static RunLauncher.RunResult floorRun(double firstOpsPerS, double firstCpuUs, double toMainMs) {
        Map<String, Double> figures = new java.util.HashMap<>(run(1000, firstOpsPerS, 40, 2000, 9000).figures());
        figures.put("first_window_cpu_us_per_op", firstCpuUs);
        figures.put("jvm_start_to_main_ms", toMainMs);
        return RunLauncher.RunResult.of(figures);
    }

    private static RunLauncher.RunResult withLive(RunLauncher.RunResult run, double liveCpuUs) {
        Map<String, Double> figures = new java.util.HashMap<>(run.figures());
        figures.put("live_cpu_us_per_request", liveCpuUs);
        return RunLauncher.RunResult.of(figures);
    }

    private static Row serveRow(Configuration config, RunLauncher.RunResult... rounds) {
        Row row = new Row(Workload.SERVE_POOL, config);
        row.rounds.addAll(List.of(rounds));
        return row;
    }

    /** A serve run's figures: CPU per request, and a client p99 and allocation that move with it. */
    private static RunLauncher.RunResult serve(double cpuUsPerRequest, double p99Us) {
        return RunLauncher.RunResult.of(Map.of("cpu_us_per_request", cpuUsPerRequest, "client_latency_p99_us", p99Us,
                "allocated_bytes_per_request", cpuUsPerRequest, "client_ok", 4000.0));
    }

    private static RunLauncher.RunResult withMain(RunLauncher.RunResult run, double wallMs, double cpuMs) {
        Map<String, Double> figures = new java.util.HashMap<>(run.figures());
        figures.put("jvm_start_to_main_ms", wallMs);
        figures.put("jvm_start_to_main_cpu_ms", cpuMs);
        return RunLauncher.RunResult.of(figures);
    }

    private static Map<String, String> statusByTarget(List<TargetCheck> checks) {
        Map<String, String> status = new java.util.LinkedHashMap<>();
        for (TargetCheck c : checks) {
            status.put(c.target(), c.status());
        }
        return status;
    }

    private static List<String> analyzerStatus(List<TargetCheck> checks) {
        return checks.stream().filter(c -> c.row().startsWith("analyzer"))
                .map(c -> c.target() + " [" + c.row() + "]: " + c.status()).toList();
    }

    private static BenchResult result(List<Row> rows, AnalyzerBench.Result analyzer, TracerBench.Result tracer) {
        return result(List.of(Workload.OKHTTP_SYNC_64K), rows, 1, analyzer, tracer);
    }

    private static BenchResult result(List<Workload> workloads, List<Row> rows, int rounds, AnalyzerBench.Result analyzer,
                                      TracerBench.Result tracer) {
        Map<String, Row> byKey = BenchResult.newRows();
        List<Configuration> configs = new java.util.ArrayList<>();
        for (Row r : rows) {
            byKey.put(BenchResult.key(r.workload, r.config), r);
            configs.add(r.config);
        }
        Machine machine = new Machine("cpu", 2, "Linux", "17", "0.1 0.1 0.1", "0.2 0.2 0.2");
        return new BenchResult("bench", machine, new RunLauncher.Windows(10, 10, 5), rounds, workloads, configs, byKey, analyzer,
                tracer, 60);
    }
}
