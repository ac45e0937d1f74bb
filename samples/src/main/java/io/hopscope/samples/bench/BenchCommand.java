package io.hopscope.samples.bench;

import io.hopscope.samples.common.Options;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench}: hopscope side by side with the tools users would pick instead, one JVM a run (issue #22). */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Runs the pipeline workloads and serve's server row, each configuration in its own JVM, interleaved (none, hopscope, "
                + "otel, ... then the next workload, then the next round), and prints the throughput ratio to the "
                + "baseline (median and min-max over rounds), CPU us per request added, p99 ratio, allocated bytes "
                + "per request, the first window's throughput ratio beside the steady-state one and the time (and CPU) "
                + "from the JVM's start to the application's main, where an agent's premain and install go; then the "
                + "analyzer's cost (hopscope report against the bare jdk.jfr.consumer floor and jfr summary), the "
                + "agent's exact allocation per request against the process's and the JDK's sampled estimate of it, the "
                + "eBPF tracer's cost per off-CPU interval (root and bcc only), and its targets, each "
                + "computed: met, or not met by how much.",
                "",
                "serve-pool-400 runs serve (a Jetty service in the measured JVM; its open-loop load and backend in a "
                + "child JVM without any agent) at 400 requests a second, the same under every configuration: its row "
                + "is the service JVM's CPU per inbound request, every round shown, against the target that hopscope "
                + "adds at most half what the OpenTelemetry agent adds.",
                "",
                "Each run is one JVM: its first window (from the first request, no warm-up), then the steady-state "
                + "window after the warm-up. Defaults: first 10 s (the cold window: what the first requests pay), then 5 s after 10 s of "
                + "warm-up, 2 rounds; none, hopscope and otel on every workload (the CPU target compares them on "
                + "each), the other configurations on the first one (--every-workload: all). That is 22 runs of "
                + "about 17 s a round, plus a 60 s recording for the analyzer and about a minute of switchcost.py: "
                + "about 15 minutes on 2 cores, which is why the steady window is shorter and earlier than the "
                + "published figures' 10 s after 20 s (--warmup 20 --duration 10 --rounds 3: about 40 minutes). Two rounds "
                + "give a range; the ratio of one pair of runs moves 5-10%% on a shared VM.",
                "--quick: none and hopscope on okhttp-sync-1k, 2 rounds, first 5 s and 5 s after 5 s, no analyzer or "
                + "tracer row: about a minute. A configuration that cannot run here (no root, no OTel jar) is a row "
                + "saying why.",
                "Example: java -jar samples/target/hopscope-samples.jar bench --json bench.json --markdown docs/performance.md",
                "--tracer-only: the eBPF tracer row alone (offwake beside the empty programs' floor, every round).",
                "--allocation-only: the allocation row alone (the pipeline under the agent, OkHttp sync and Netty "
                + "sync-over-async, " + AllocationBench.REQUESTS + " calls each, then hopscope report): about a minute.",
                "Example: java -jar samples/target/hopscope-samples.jar bench --quick",
                "Example: java -jar samples/target/hopscope-samples.jar bench --tracer-only --tracer-rounds 3 --markdown docs/performance.md",
                "Example: java -jar samples/target/hopscope-samples.jar bench --allocation-only --markdown docs/performance.md",
                "Example: java -jar samples/target/hopscope-samples.jar bench --soak 30 --markdown docs/performance.md"})
public final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--configs", paramLabel = "NAMES", split = ",", hideParamSyntax = true,
            description = "Comma-separated configurations, from: none, empty-agent, boot-append, hopscope, hopscope+asprof, "
                    + "hopscope+offwake, hopscope-b, otel, hopscope-unwatched, hopscope+live, asprof-wall, jfr-profile (default all but"
                    + " hopscope-unwatched and hopscope+live, which issue #43's row runs, empty-agent and boot-append, which issue #45's"
                    + " floor runs, and hopscope-b only with --agent-b; --quick: none,hopscope). Ratios need none;"
                    + " hopscope+live is also compared with hopscope-unwatched (what being watched costs the target)."
                    + " empty-agent (a java agent whose premain does nothing) and boot-append (one that only appends a jar of a"
                    + " few classes to the boot class path, as hopscope does for its bridge) are the floor: any agent's cost in"
                    + " the first window; with empty-agent, hopscope's first window is also shown over the empty agent's of the"
                    + " same round, e.g. --configs none,empty-agent,boot-append,hopscope,otel --workloads okhttp-sync-1k,netty-soa-1k"
                    + " --rounds 5.")
    List<String> configNames;

    @Option(names = "--workloads", paramLabel = "NAMES", split = ",", hideParamSyntax = true,
            description = "Comma-separated workloads, from: okhttp-sync-1k, okhttp-sync-64k, netty-soa-1k, netty-soa-64k, "
                    + "okhttp-sync-1k-delay1 (pipeline, --parallel 8), serve-pool-400 (serve: inbound requests at a fixed "
                    + "rate, so its figure is the service's CPU per request); default all; --quick: okhttp-sync-1k.")
    List<String> workloadNames;

    @Option(names = "--every-workload", description = "Run every configuration on every workload, not only none, hopscope and otel.")
    boolean everyWorkload;

    @Option(names = "--rounds", paramLabel = "N", description = "Rounds, each running every configuration once (default 2).")
    Integer rounds;

    @Option(names = "--first-window", paramLabel = "S", description = "First window, from the first request (default 10; --quick 5).")
    Double firstS;

    @Option(names = "--warmup", paramLabel = "S", description = "Warm-up before the steady-state window, >= --first-window (default 20: C2 settles under the agent "
                    + "after about 15 s; --quick 5).")
    Double warmupS;

    @Option(names = "--duration", paramLabel = "S", description = "Steady-state window (default 10; --quick 5).")
    Double durationS;

    @Option(names = "--analyzer-recording", paramLabel = "S", defaultValue = "60",
            description = "Seconds of the okhttp-sync-1k recording the analyzer row reads (default ${DEFAULT-VALUE}).")
    double analyzerRecordingS;

    @Option(names = "--analyzer-runs", paramLabel = "N", defaultValue = "3",
            description = "Runs of report, the floor and jfr summary, one after another (default ${DEFAULT-VALUE}; medians).")
    int analyzerRuns;

    @Option(names = "--tracer-rounds", paramLabel = "N", defaultValue = "2", description = "Rounds of switchcost.py (default ${DEFAULT-VALUE}).")
    int tracerRounds;

    @Option(names = "--no-tools", description = "No analyzer or tracer row.")
    boolean noTools;

    @Option(names = "--tracer-only", description = "Only the eBPF tracer row (--tracer-rounds rounds of offwake beside the "
            + "empty-program floor) and its targets; --markdown then writes them between <!-- bench-tracer:begin --> and "
            + "<!-- bench-tracer:end -->, leaving the bench section as it is.")
    boolean tracerOnly;

    @Option(names = "--allocation-only", description = "Only the allocation row and its targets; --markdown then writes "
            + "them between <!-- bench-allocation:begin --> and <!-- bench-allocation:end -->, leaving the rest as it is.")
    boolean allocationOnly;

    @Option(names = "--soak", paramLabel = "MINUTES", description = "Only the soak (issue #43): hopscope live --otlp on a steady "
            + "pipeline sample (Netty sync-over-async, 2 callers, 2 ms server) for MINUTES, and each minute the resident set and the "
            + "heap after a full GC of both processes, the target's JFR repository and live's copy of its stream on disk, and "
            + "live's CPU per watched request; --markdown then writes them between <!-- bench-soak:begin --> and "
            + "<!-- bench-soak:end -->, leaving the rest as it is.")
    Integer soakMinutes;

    @Option(names = "--quick", description = "About a minute: see above.")
    boolean quick;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the figures, every round's raw ones included, as JSON.")
    Path json;

    @Option(names = "--markdown", paramLabel = "FILE",
            description = "Also write the table, command, machine and targets between <!-- bench:begin --> and "
                    + "<!-- bench:end --> in FILE (the rest kept; created, or the section appended, when missing).")
    Path markdown;

    @Option(names = "--markdown-section", paramLabel = "NAME", defaultValue = MarkdownSection.NAME,
            description = "The markers --markdown writes between: <!-- NAME:begin --> and <!-- NAME:end --> (default"
                    + " ${DEFAULT-VALUE}), e.g. bench-live for a run of hopscope-unwatched and hopscope+live beside the whole bench's section.")
    String markdownSection;

    @Option(names = "--readme", paramLabel = "FILE",
            description = "Also write the short form (hopscope beside OTel, the targets missed) between <!-- bench-summary:begin --> "
                    + "and <!-- bench-summary:end --> in FILE, e.g. README.md.")
    Path readme;

    @Option(names = "--work", paramLabel = "DIR", description = "Where runs keep their output (default: a new temporary folder).")
    Path work;

    @Option(names = "--agent", paramLabel = "JAR", description = "The hopscope agent (default agent/target/hopscope-agent.jar of this checkout).")
    Path agent;

    @Option(names = "--agent-b", paramLabel = "JAR", description = "A second build of the agent, run as configuration hopscope-b "
            + "interleaved with the first on every workload (e.g. the agent before a change against after it).")
    Path agentB;

    @Option(names = "--java", paramLabel = "PATH", description = "The java of the runs (default: this one's): "
            + "JDK 17 or later, which the samples and their Jetty 12 server need.")
    Path java;

    /** The Java the samples are built for, and their Jetty 12 server needs: the oldest the measured JVMs can be. */
    static final int SAMPLES_FEATURE = 17;

    /** The feature release of {@code javaExe} from its -version line ("11.0.13" gives 11), or -1 when it says none. */
    static int featureOf(Path javaExe) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(javaExe.toString(), "-version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        Matcher m = Pattern.compile("version \"(?:1\\.)?(\\d+)").matcher(out);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    @Override
    public Integer call() throws Exception {
        List<Configuration> configs = configs();
        List<Workload> workloads = workloads();
        int roundCount = rounds != null ? rounds : 2;
        RunLauncher.Windows windows = new RunLauncher.Windows(firstS != null ? firstS : quick ? 5 : 10,
                warmupS != null ? warmupS : quick ? 5 : 20, durationS != null ? durationS : quick ? 5 : 10);
        Options.atLeast(spec, "--rounds", roundCount, 1);
        Options.atLeast(spec, "--first-window", windows.firstS(), 0);
        Options.check(spec, windows.warmupS() >= windows.firstS(), "--warmup must be >= --first-window ("
                + windows.firstS() + "), got " + windows.warmupS());
        Options.above(spec, "--duration", windows.durationS(), 0);
        Options.above(spec, "--analyzer-recording", analyzerRecordingS, 0);
        Options.atLeast(spec, "--analyzer-runs", analyzerRuns, 1);
        Options.atLeast(spec, "--tracer-rounds", tracerRounds, 1);
        Path javaPath = java != null ? java : Path.of(System.getProperty("java.home"), "bin", "java");
        Options.check(spec, Files.isExecutable(javaPath), "--java: " + javaPath + " is not an executable");
        int feature = featureOf(javaPath);
        Options.check(spec, feature < 0 || feature >= SAMPLES_FEATURE, "--java: " + javaPath + " is JDK " + feature
                + ", and every workload (" + workloads.stream().map(w -> w.label).collect(Collectors.joining(", "))
                + ") runs the samples, built for Java " + SAMPLES_FEATURE + " with a Jetty 12 server: give a JDK "
                + SAMPLES_FEATURE + " or later (the agent's JDK 11 runs are its integration tests, docs/tests.md)");
        checkWritable(json, "--json");
        checkWritable(markdown, "--markdown");
        checkWritable(readme, "--readme");
        Options.check(spec, !tracerOnly || readme == null && json == null && !quick && !noTools,
                "--tracer-only takes no --readme, --json, --quick or --no-tools");
        Options.check(spec, !allocationOnly || readme == null && json == null && !quick && !noTools && !tracerOnly,
                "--allocation-only takes no --readme, --json, --quick, --no-tools or --tracer-only");
        Options.check(spec, soakMinutes == null || soakMinutes >= 1, "--soak must be at least 1 minute, got " + soakMinutes);
        Options.check(spec, soakMinutes == null || !tracerOnly && !allocationOnly && readme == null && json == null && !quick,
                "--soak takes no --tracer-only, --allocation-only, --readme, --json or --quick");
        Options.check(spec, markdownSection.matches("[\\w-]+"), "--markdown-section must be a word (letters, digits, -), got '"
                + markdownSection + "'");
        checkMarkers(markdown, "--markdown", soakMinutes != null ? MarkdownSection.SOAK_NAME
                : tracerOnly ? MarkdownSection.TRACER_NAME
                : allocationOnly ? MarkdownSection.ALLOCATION_NAME : markdownSection);
        checkMarkers(readme, "--readme", MarkdownSection.SUMMARY_NAME);

        Path workDir = work != null ? Files.createDirectories(work) : Files.createTempDirectory("hopscope-bench-");
        Options.check(spec, agentB == null || Files.isRegularFile(agentB), "--agent-b: " + agentB + " is not a file");
        Options.check(spec, agentB != null || !configs.contains(Configuration.HOPSCOPE_B),
                "--configs: hopscope-b runs the agent of --agent-b; give --agent-b JAR");
        BenchTools tools = new BenchTools(agent, agentB, javaPath, workDir);
        PrintWriter err = spec.commandLine().getErr();
        Machine machine = Machine.before(javaPath);
        long start = System.nanoTime();
        if (tracerOnly) {
            return tracerOnly(tools, machine, start);
        }
        if (allocationOnly) {
            return allocationOnly(tools, machine, start);
        }
        if (soakMinutes != null) {
            return soak(tools, machine, start);
        }
        Map<String, Row> rows = BenchResult.newRows();
        for (Workload w : workloads) {
            for (Configuration c : configs) {
                if (c.everyWorkload || everyWorkload || w == workloads.get(0)) {
                    rows.put(BenchResult.key(w, c), new Row(w, c));
                }
            }
        }
        err.println("bench: " + roundCount + (roundCount == 1 ? " round of " : " rounds of ") + rows.size()
                + " runs; runs in " + workDir);
        err.flush();
        RunLauncher launcher = new RunLauncher(tools, windows);
        for (int round = 1; round <= roundCount; round++) {
            for (Row row : rows.values()) {
                long runStart = System.nanoTime();
                RunLauncher.RunResult result = launcher.run(row.workload, row.config,
                        workDir.resolve("round" + round + "-" + row.workload.label + "-" + row.config.label));
                row.rounds.add(result);
                err.println(String.format(Locale.ROOT, "bench: round %d/%d %s %s: %s (%.0f s)", round, roundCount,
                        row.workload.label, row.config.label, progress(row.workload, result), (System.nanoTime() - runStart) / 1e9));
                err.flush();
            }
        }
        boolean tools0 = quick || noTools;
        String skipped = quick ? "skipped by --quick" : "skipped by --no-tools";
        AnalyzerBench.Result analyzer = tools0 ? new AnalyzerBench.Result(analyzerRecordingS, 0, 0, null, null, null, Double.NaN,
                skipped, false) : AnalyzerBench.run(tools, analyzerRecordingS, analyzerRuns);
        if (!tools0) {
            analyzer = analyzer.withExport(ExportBench.run(tools, analyzerRuns)).withAllocation(AllocationBench.run(tools));
            err.println("bench: analyzer row done");
            err.flush();
        }
        TracerBench.Result tracer = tools0 ? TracerBench.Result.notMeasured(skipped) : TracerBench.run(tools, tracerRounds);
        BenchResult result = new BenchResult(command(), machine.after(), windows, roundCount, workloads, configs, rows,
                analyzer, tracer, (System.nanoTime() - start) / 1e9);

        System.out.print(BenchText.text(result));
        System.out.flush();
        if (json != null) {
            Files.writeString(json, BenchJson.write(result));
        }
        if (markdown != null) {
            String existing = Files.isRegularFile(markdown) ? Files.readString(markdown) : null;
            Files.writeString(markdown, MarkdownSection.replace(existing, BenchText.markdown(result), markdownSection));
        }
        if (readme != null) {
            String existing = Files.isRegularFile(readme) ? Files.readString(readme) : null;
            Files.writeString(readme, MarkdownSection.replace(existing, BenchText.summaryMarkdown(result), MarkdownSection.SUMMARY_NAME));
        }
        return 0;
    }

    /** {@code --tracer-only}: the eBPF tracer row and its targets, alone. */
    private int tracerOnly(BenchTools tools, Machine machine, long start) throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        err.println("bench: " + tracerRounds + " round(s) of offwake beside the empty-program floor (switchcost.py --empty)");
        err.flush();
        TracerBench.Result tracer = TracerBench.run(tools, tracerRounds);
        printAlone(BenchText.tracerLine(tracer), Targets.tracer(tracer));
        if (markdown != null) {
            String existing = Files.isRegularFile(markdown) ? Files.readString(markdown) : null;
            Files.writeString(markdown, MarkdownSection.replace(existing, BenchText.tracerMarkdown(tracer, command(),
                    machine.after(), (System.nanoTime() - start) / 1e9), MarkdownSection.TRACER_NAME));
        }
        return 0;
    }

    /** {@code --allocation-only}: the allocation row and its targets, alone. */
    private int allocationOnly(BenchTools tools, Machine machine, long start) throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        err.println("bench: the pipeline under the agent, " + AllocationBench.REQUESTS + " calls of each client, then hopscope report");
        err.flush();
        AllocationBench.Result allocation = AllocationBench.run(tools);
        printAlone(AllocationBench.line(allocation), Targets.allocation(allocation));
        if (markdown != null) {
            String existing = Files.isRegularFile(markdown) ? Files.readString(markdown) : null;
            Files.writeString(markdown, MarkdownSection.replace(existing, BenchText.allocationMarkdown(allocation, command(),
                    machine.after(), (System.nanoTime() - start) / 1e9), MarkdownSection.ALLOCATION_NAME));
        }
        return 0;
    }

    /** A row measured alone: its line, then each of its targets with its status. */
    private static void printAlone(String line, List<TargetCheck> targets) {
        StringBuilder out = new StringBuilder(line).append('\n');
        for (TargetCheck t : targets) {
            out.append("  ").append(t.target()).append(" [").append(t.row()).append("]: ").append(t.valueText())
                    .append(", target ").append(t.limitText()).append(": ").append(t.status()).append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }

    /** {@code --soak}: live on a steady workload for minutes, its figures each minute, alone. */
    private int soak(BenchTools tools, Machine machine, long start) throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        err.println("bench: soak of hopscope live for " + soakMinutes + " minutes; figures each minute");
        err.flush();
        SoakBench.Result soak = SoakBench.run(tools, soakMinutes, err);
        System.out.print(SoakBench.text(soak));
        System.out.flush();
        if (markdown != null) {
            String existing = Files.isRegularFile(markdown) ? Files.readString(markdown) : null;
            Files.writeString(markdown, MarkdownSection.replace(existing, SoakBench.markdown(soak, command(), machine.after(),
                    (System.nanoTime() - start) / 1e9), MarkdownSection.SOAK_NAME));
        }
        return soak.whyNot() == null ? 0 : 1;
    }

    List<Configuration> configs() {
        List<String> names = configNames != null ? configNames : quick ? List.of("none", "hopscope") : null;
        if (names == null) {
            List<Configuration> all = new ArrayList<>(List.of(Configuration.values()));
            if (agentB == null) {
                all.remove(Configuration.HOPSCOPE_B);
            }
            // The watched pair is its own row (--configs none,hopscope-unwatched,hopscope+live): the whole bench is
            // long enough, and the published section was measured without it.
            all.remove(Configuration.HOPSCOPE_UNWATCHED);
            all.remove(Configuration.HOPSCOPE_LIVE);
            // So is the floor (--configs none,empty-agent,boot-append,hopscope,hopscope-bg,otel): issue #45's measurement.
            all.remove(Configuration.EMPTY_AGENT);
            all.remove(Configuration.BOOT_APPEND);
            all.remove(Configuration.HOPSCOPE_BACKGROUND);
            return all;
        }
        List<Configuration> configs = new ArrayList<>();
        for (String name : names) {
            Configuration c = Configuration.byLabel(name.trim());
            Options.check(spec, c != null, "--configs: unknown configuration '" + name + "'; choose from " + Configuration.labels());
            Options.check(spec, !configs.contains(c), "--configs: '" + name + "' given twice");
            configs.add(c);
        }
        return configs;
    }

    private List<Workload> workloads() {
        List<String> names = workloadNames != null ? workloadNames : quick ? List.of(Workload.OKHTTP_SYNC_1K.label) : null;
        if (names == null) {
            return List.of(Workload.values());
        }
        List<Workload> workloads = new ArrayList<>();
        for (String name : names) {
            Workload w = Workload.byLabel(name.trim());
            Options.check(spec, w != null, "--workloads: unknown workload '" + name + "'; choose from " + Workload.labels());
            Options.check(spec, !workloads.contains(w), "--workloads: '" + name + "' given twice");
            workloads.add(w);
        }
        return workloads;
    }

    private void checkWritable(Path file, String option) {
        if (file == null) {
            return;
        }
        Path dir = file.toAbsolutePath().getParent();
        Options.check(spec, dir != null && Files.isDirectory(dir) && Files.isWritable(dir),
                option + ": cannot write " + file + " (its folder is missing or not writable)");
        Options.check(spec, !Files.exists(file) || Files.isWritable(file), option + ": cannot write " + file);
    }

    /** Refuses, before any run, a file whose section markers are unpaired. */
    private void checkMarkers(Path file, String option, String name) throws IOException {
        if (file != null && Files.isRegularFile(file)) {
            try {
                MarkdownSection.replace(Files.readString(file), "", name);
            } catch (IllegalArgumentException e) {
                Options.check(spec, false, option + ": " + file + " " + e.getMessage());
            }
        }
    }

    /** The command as given, for the report: what to type to measure again. */
    private String command() {
        StringBuilder b = new StringBuilder("java -jar samples/target/hopscope-samples.jar bench");
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        // The parse result's arguments are the whole command line's, subcommand name included.
        int first = args.indexOf(spec.name()) + 1;
        for (String arg : args.subList(first, args.size())) {
            b.append(' ').append(arg.matches("[\\w./=,+:-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
        }
        return b.toString();
    }

    private static String progress(Workload w, RunLauncher.RunResult r) {
        if (r.unavailable() != null) {
            return "not run: " + r.unavailable();
        }
        if (r.error() != null) {
            return "failed: " + r.error();
        }
        if (w.kind == Workload.Kind.SERVE) {
            return String.format(Locale.ROOT, "%.0f requests at %.0f/s, %.1f us CPU/request, client p99 %.1f ms, main after %.0f ms",
                    r.figures().getOrDefault("client_ok", -1.0), r.figures().getOrDefault("rate_per_s", -1.0),
                    r.figure("cpu_us_per_request"), r.figures().getOrDefault("client_latency_p99_us", -1.0) / 1e3,
                    r.figures().getOrDefault("jvm_start_to_main_ms", -1.0));
        }
        return String.format(Locale.ROOT, "%.0f ops/s, first window %.0f ops/s, %.1f us CPU/op, main after %.0f ms (%.0f ms CPU)",
                r.figure("ops_per_s"), r.figures().getOrDefault("first_window_ops_per_s", -1.0), r.figure("cpu_us_per_op"),
                r.figures().getOrDefault("jvm_start_to_main_ms", -1.0), r.figures().getOrDefault("jvm_start_to_main_cpu_ms", -1.0));
    }
}
