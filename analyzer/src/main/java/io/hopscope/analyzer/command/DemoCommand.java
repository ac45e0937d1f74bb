package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.DiffBuilder;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.model.Diff;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.ServerQueueSummary;
import io.hopscope.analyzer.model.Warmup;
import io.hopscope.analyzer.output.JsonReport;
import io.hopscope.analyzer.output.TextDiff;
import io.hopscope.analyzer.output.TextReport;
import io.hopscope.analyzer.output.Units;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code hopscope demo}: the first thing a newcomer runs. Short runs of the pipeline sample under the
 * agent (OkHttp fully synchronous, Netty sync-over-async, and where a JDK 21+ is at hand OkHttp
 * synchronous on virtual callers), then their diffs and the slowest requests, with everything
 * written into a fresh folder.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the pipeline sample under the agent: okhttp --mode sync, netty --mode"
                + " sync-over-async, and okhttp --mode sync --callers virtual on the newest JDK 21+ of this"
                + " JVM, JAVA_HOME and /usr/lib/jvm, or the one --virtual-jdk names (skipped, saying so, when"
                + " there is none); embedded"
                + " server, whose own requests the recordings hold but the reports and diffs leave out. Then the serve sample, a server under an open-loop load, under the agent. Writes"
                + " the recordings and their reports into a new folder hopscope-demo-<time>/, then prints the"
                + " diffs (okhttp-sync against each other run), the slowest requests, and the server's queue"
                + " beside what its clients waited.",
                "Needs samples/target/hopscope-samples.jar and agent/target/hopscope-agent.jar (make build),"
                + " found beside this jar's repository or under the working directory.",
                "",
                "Example: hopscope demo --duration 5"})
public final class DemoCommand implements Callable<Integer> {

    static final String SAMPLES_JAR = "samples/target/hopscope-samples.jar";
    static final String AGENT_JAR = "agent/target/hopscope-agent.jar";
    /**
     * The pipeline runs' requests the demo reports: the calls (named with the host they went to), not
     * the embedded server's answers to them, which the same recording holds (named by path alone).
     */
    static final String CALLS = "* 127.0.0.1/*";
    /** The server study's sample subcommand, and the name of its files in the demo's folder. */
    static final String SERVE = "serve";

    @Spec
    CommandSpec spec;

    @Option(names = "--duration", defaultValue = "8", paramLabel = "SECONDS",
            description = "Measured seconds per run, after a 2 s warmup (default ${DEFAULT-VALUE}).")
    int durationSeconds;

    @Option(names = "--parallel", defaultValue = "2", paramLabel = "N",
            description = "Caller threads per run (default ${DEFAULT-VALUE}).")
    int parallel;

    @Option(names = "--dir", paramLabel = "DIR", description = "Folder to write into (default: hopscope-demo-<time>).")
    Path dir;

    @Option(names = "--home", paramLabel = "DIR", description = "Repository root holding the samples and agent jars.")
    Path home;

    @Option(names = "--virtual-jdk", paramLabel = "DIR",
            description = "JDK home (21+) of the virtual-callers run (default: the newest of this JVM, JAVA_HOME and /usr/lib/jvm).")
    Path virtualJdk;

    /** The first JDK with virtual threads as a final feature. */
    static final int VIRTUAL_THREADS_FEATURE = 21;

    /** One run of the pipeline sample on {@code java}. */
    record Run(String label, String httpClient, String mode, String callers, Path java, int feature) {
    }

    @Override
    public Integer call() throws Exception {
        if (durationSeconds < 1 || parallel < 1) {
            throw new ParameterException(spec.commandLine(), "--duration and --parallel must be >= 1");
        }
        Optional<JdkHomes.Home> newer = virtualJdk == null ? JdkHomes.newest(VIRTUAL_THREADS_FEATURE) : Optional.of(given(virtualJdk));
        Path root = findRoot();
        Path samples = root.resolve(SAMPLES_JAR);
        Path agent = root.resolve(AGENT_JAR);
        Path folder = dir != null ? dir
                : Path.of("hopscope-demo-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new CliProblem(folder + ": cannot create the demo folder; choose another with --dir");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path self = Path.of(System.getProperty("java.home"), "bin", "java");
        int selfFeature = Runtime.version().feature();
        List<Run> runs = new ArrayList<>(List.of(new Run("okhttp-sync", "okhttp", "sync", "platform", self, selfFeature),
                new Run("netty-sync-over-async", "netty", "sync-over-async", "platform", self, selfFeature)));
        if (newer.isPresent()) {
            runs.add(new Run("okhttp-sync-virtual", "okhttp", "sync", "virtual", newer.get().java(), newer.get().feature()));
        } else {
            err.println("demo: no JDK " + VIRTUAL_THREADS_FEATURE + "+ found under JAVA_HOME or " + JdkHomes.SYSTEM_JVMS
                    + "; skipping the virtual-callers run");
        }
        List<Report> reports = new ArrayList<>();
        for (Run run : runs) {
            Path jfr = folder.resolve(run.label() + ".jfr").toAbsolutePath();
            err.println("demo: running pipeline --http-client " + run.httpClient() + " --mode " + run.mode()
                    + " --callers " + run.callers() + " for " + durationSeconds + " s on JDK " + run.feature()
                    + " under the agent -> " + jfr);
            err.flush();
            runSample(run, samples, agent, jfr, folder.resolve(run.label() + ".log"));
            // The pipeline's calls: the samples' server answers them in the same JVM, and its requests
            // (kind server, GET / without a host) are in the recording, but not in the study's figures.
            Report report = new RecordingAnalyzer(jfr, new AnalysisOptions(CALLS, 5, SortField.duration, 5,
                    AnalysisOptions.defaultDetailBytes()).withWarmup(Warmup.apart)).analyze();
            report.recording().warnings().forEach(w -> err.println("warning: " + w));
            try (Writer w = Files.newBufferedWriter(folder.resolve(run.label() + "-report.txt"), StandardCharsets.UTF_8)) {
                TextReport.write(report, "duration", new PrintWriter(w));
            }
            try (Writer w = Files.newBufferedWriter(folder.resolve(run.label() + "-report.json"), StandardCharsets.UTF_8)) {
                JsonReport.write(report, w);
            }
            reports.add(report);
        }
        // Each other run against the first, OkHttp sync on platform threads: what it costs to hop to
        // an event loop, and what it costs to stay on one thread that is virtual.
        List<String> diffFiles = new ArrayList<>();
        for (int i = 1; i < runs.size(); i++) {
            String file = i == 1 ? "diff.txt" : "diff-" + runs.get(i).label() + ".txt";
            Diff diff = DiffBuilder.diff(reports.get(0), reports.get(i));
            try (Writer w = Files.newBufferedWriter(folder.resolve(file), StandardCharsets.UTF_8)) {
                TextDiff.write(diff, new PrintWriter(w));
            }
            out.println(runs.get(0).label() + " (A) against " + runs.get(i).label() + " (B), JDK " + runs.get(0).feature()
                    + " and " + runs.get(i).feature() + ":");
            TextDiff.write(diff, out);
            out.println();
            diffFiles.add(file);
        }
        out.println("slowest requests of " + runs.get(1).label() + ":");
        TextReport.write(reports.get(1), "duration", out);
        out.println();
        exportStep(folder, runs.get(1).label(), out, err);
        serveStep(samples, agent, self, folder, out, err);
        out.println("written to " + folder.toAbsolutePath() + "/ (recordings, reports as text and json, "
                + String.join(", ", diffFiles) + ")");
        out.flush();
        return 0;
    }

    /**
     * The server study (issue 40): the samples' server in serve's pool mode, its load open-loop in a JVM
     * of its own, under the agent; what its clients waited beside what its handler measured and the
     * server queue hopscope found in its requests.
     */
    private void serveStep(Path samples, Path agent, Path java, Path folder, PrintWriter out, PrintWriter err)
            throws Exception {
        Path jfr = folder.resolve(SERVE + ".jfr").toAbsolutePath();
        Path log = folder.resolve(SERVE + ".log");
        err.println("demo: running serve --mode pool for " + durationSeconds + " s under the agent -> " + jfr);
        err.flush();
        run(SERVE, List.of(java.toString(), "-javaagent:" + agent.toAbsolutePath() + "=jfr=" + jfr, "-jar",
                samples.toAbsolutePath().toString(), SERVE, "--mode", "pool", "--warmup", "2",
                "--duration", Integer.toString(durationSeconds)), jfr, log);
        Map<String, String> figures = new LinkedHashMap<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            int colon = line.indexOf(": ");
            if (colon > 0 && line.indexOf(' ') > colon) {
                figures.put(line.substring(0, colon), line.substring(colon + 2).trim());
            }
        }
        Report report = new RecordingAnalyzer(jfr, new AnalysisOptions(null, 5, SortField.duration, 5,
                AnalysisOptions.defaultDetailBytes()).withWarmup(Warmup.apart)).analyze();
        report.recording().warnings().forEach(w -> err.println("warning: " + w));
        try (Writer w = Files.newBufferedWriter(folder.resolve(SERVE + "-report.txt"), StandardCharsets.UTF_8)) {
            TextReport.write(report, "duration", new PrintWriter(w));
        }
        try (Writer w = Files.newBufferedWriter(folder.resolve(SERVE + "-report.json"), StandardCharsets.UTF_8)) {
            JsonReport.write(report, w);
        }
        out.println("serve --mode pool: the samples' server, " + figures.getOrDefault("threads", "?")
                + " request threads, its load open-loop at " + figures.getOrDefault("rate_per_s", "?")
                + " requests/s from a JVM of its own:");
        out.printf(Locale.ROOT, "  %-50s p50 %s, p99 %s%n", "what its clients waited (from when each was due)",
                micros(figures.get("client_latency_p50_us")), micros(figures.get("client_latency_p99_us")));
        out.printf(Locale.ROOT, "  %-50s p50 %s, p99 %s%n", "what its handler measured of its own time",
                micros(figures.get("handler_p50_us")), micros(figures.get("handler_p99_us")));
        for (NameSummary name : report.summary()) {
            if (name.kinds().server() > 0) {
                ServerQueueSummary queue = name.serverQueue();
                out.printf(Locale.ROOT, "  %-50s mean %s, p99 %s (%d of %d handed over by the selector)%n",
                        "hopscope's server queue of " + name.name(), Units.nanos(queue.meanNanos()),
                        Units.nanos(queue.p99Nanos()), queue.queued(), name.count());
            }
        }
        out.println("  (" + folder.resolve(SERVE + "-report.txt") + " has its slowest requests, each with its hops)");
        out.println();
    }

    /** A figure serve printed in microseconds, as the text reports show times; "?" when it printed none. */
    private static String micros(String value) {
        if (value == null) {
            return "?";
        }
        try {
            return Units.nanos(Double.parseDouble(value) * 1e3);
        } catch (NumberFormatException e) {
            return "?";
        }
    }

    /**
     * The step into a fleet's backend: the Netty run's per-request profiles as pprof and as an OTLP
     * profiles request (through {@link ExportCommand}, as a user runs it), and where to look in them.
     */
    private static void exportStep(Path folder, String label, PrintWriter out, PrintWriter err) {
        Path jfr = folder.resolve(label + ".jfr").toAbsolutePath();
        Path pprof = folder.resolve(label + ".pb.gz").toAbsolutePath();
        Path otlp = folder.resolve(label + ".otlp.pb").toAbsolutePath();
        if (new CommandLine(new ExportCommand()).setOut(out).setErr(err)
                .execute(jfr.toString(), "--format", "pprof", "-o", pprof.toString()) != 0
                || new CommandLine(new ExportCommand()).setOut(out).setErr(err)
                .execute(jfr.toString(), "--format", "otlp", "-o", otlp.toString()) != 0) {
            return;
        }
        out.println("per-request profiles of " + label + " for a fleet's backend: " + pprof);
        out.println("  go tool pprof -top -sample_index=queue_delay " + pprof);
        out.println("    each hop's delay by where it went: 'queue delay via EXECUTOR' then 'to POOL' (the event loop);");
        out.println("    -sample_index=wake_latency is the way back to the caller, also cpu, alloc_space, lock, park;");
        out.println("    -tagfocus=request_name=NAME keeps one request name, -http=127.0.0.1:8080 draws flame graphs");
        out.println("  and as OTLP profiles (ExportProfilesServiceRequest, protobuf): " + otlp);
        out.println("    curl -H 'Content-Type: application/x-protobuf' --data-binary @" + otlp
                + " http://127.0.0.1:4318/v1development/profiles");
        out.println("    or hopscope export " + jfr + " --format otlp --otlp http://127.0.0.1:4318   (an OpenTelemetry"
                + " Collector; README, \"In production\")");
        out.println();
    }

    private void runSample(Run run, Path samples, Path agent, Path jfr, Path log) throws Exception {
        run(run.label(), List.of(run.java().toString(), "-javaagent:" + agent.toAbsolutePath() + "=jfr=" + jfr,
                "-jar", samples.toAbsolutePath().toString(), "pipeline",
                "--http-client", run.httpClient(), "--mode", run.mode(), "--callers", run.callers(),
                "--parallel", Integer.toString(parallel), "--warmup", "2",
                "--duration", Integer.toString(durationSeconds)), jfr, log);
    }

    /** Runs one sample's command, its output into {@code log}; it must exit 0 and write {@code jfr}. */
    private void run(String label, List<String> cmd, Path jfr, Path log) throws Exception {
        Files.writeString(log, String.join(" ", cmd) + System.lineSeparator());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!p.waitFor(durationSeconds + 90L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new CliProblem("demo: the " + label + " run did not finish in time; see " + log);
        }
        if (p.exitValue() != 0) {
            throw new CliProblem("demo: the " + label + " run exited with " + p.exitValue() + "; see " + log);
        }
        if (!Files.isRegularFile(jfr)) {
            throw new CliProblem("demo: the " + label + " run wrote no recording at " + jfr + "; see " + log);
        }
    }

    /** The repository root: --home, the one this jar was built in (analyzer/target/), or the working dir. */
    /** The JDK home --virtual-jdk names, checked: a JDK (its release file says which) of 21 or later. */
    private JdkHomes.Home given(Path dir) {
        JdkHomes.Home h = JdkHomes.read(dir).orElseThrow(() -> new ParameterException(spec.commandLine(),
                "--virtual-jdk: " + dir + " is no JDK home (no release file with its JAVA_VERSION)"));
        if (h.feature() < VIRTUAL_THREADS_FEATURE || !Files.isExecutable(h.java())) {
            throw new ParameterException(spec.commandLine(), "--virtual-jdk: " + dir + " is JDK " + h.feature()
                    + (Files.isExecutable(h.java()) ? "" : " without bin/java") + "; the virtual-callers run needs "
                    + VIRTUAL_THREADS_FEATURE + " or later");
        }
        return h;
    }

    Path findRoot() throws CliProblem {
        Set<Path> candidates = home != null ? Set.of(home.toAbsolutePath().normalize()) : AgentJar.repositoryRoots();
        for (Path c : candidates) {
            if (Files.isRegularFile(c.resolve(SAMPLES_JAR)) && Files.isRegularFile(c.resolve(AGENT_JAR))) {
                return c;
            }
        }
        List<String> looked = new ArrayList<>();
        candidates.forEach(c -> looked.add(c.toString()));
        throw new CliProblem("demo: " + SAMPLES_JAR + " and " + AGENT_JAR + " not found under "
                + String.join(" or ", looked) + "; build them first with 'make build' (or give --home)");
    }
}
