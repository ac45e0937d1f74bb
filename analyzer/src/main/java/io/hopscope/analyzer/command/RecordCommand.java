package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.analysis.kernel.OffCpuAttribution;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.model.RequestsKept;
import io.hopscope.analyzer.model.Warmup;
import io.hopscope.analyzer.output.HtmlReport;
import io.hopscope.analyzer.output.JsonReport;
import io.hopscope.analyzer.output.TextReport;
import io.hopscope.analyzer.read.BpfInput;
import io.hopscope.analyzer.read.ChunkScan;
import io.hopscope.settings.AgentOption;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hopscope record}: runs a Java command under the agent (and optionally the eBPF tracer),
 * waits for it, and writes the recording and its reports into one folder.
 */
@Command(name = "record", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the Java command after -- with the agent (-javaagent inserted after the java executable,"
                + " recording to DIR/recording.jfr), its stdio inherited; when it exits, writes DIR/report.json,"
                + " report.html and report.txt, and exits with the command's exit code.",
                "With --bpf, as root with bcc installed (bpf/setup.sh), bpf/offwake.py traces the command's process"
                + " into DIR/offcpu.jsonl from the moment it is loaded (a second or two after the start), and the"
                + " reports hold what the kernel saw; otherwise one line says why and the run goes on without it.",
                "Ctrl-C: the command gets SIGINT, then SIGTERM after " + RecordCommand.GRACE_SECONDS + " s, and the"
                + " reports are still written.",
                "",
                "Example: hopscope record -o run1 -- java -jar app.jar --port 8080",
                "         hopscope record -o run2 --agent-options requests=com.example.Api#call --bpf -- java -cp app.jar Main"})
public final class RecordCommand implements Callable<Integer> {

    static final int GRACE_SECONDS = 10;
    static final String PYTHON = "/usr/bin/python3";
    static final String OFFWAKE = "bpf/offwake.py";
    /** How long offwake may take to write its output after the command ended (it ends with its target). */
    static final int TRACER_FINISH_SECONDS = 60;

    @Spec
    CommandSpec spec;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR",
            description = "Folder for recording.jfr, report.json/html/txt (and offcpu.jsonl); created if needed.")
    Path dir;

    @Option(names = "--agent-options", paramLabel = "OPTS",
            description = "More agent options, key=value,... (docs/agent.md); jfr= is record's own.")
    String agentOptions;

    @Option(names = "--bpf", description = "Also trace the process with bpf/offwake.py (root and bcc needed).")
    boolean bpf;

    @Option(names = "--asprof", paramLabel = "EVENT",
            description = "Let async-profiler sample EVENT (cpu, wall, alloc, lock, ...) into the same recording (agent option asprof=).")
    String asprof;

    @Mixin
    AgentJarOption agent;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "java and its arguments, after --.")
    List<String> command = new ArrayList<>();

    private Process child;
    private Process tracer;
    private Path events;
    private boolean written;

    /** JFR's stack depth for the recording: async-profiler's default, and JFR's maximum. */
    static final String STACK_DEPTH_FLAG = "-XX:FlightRecorderOptions=stackdepth=2048";

    @Override
    public Integer call() throws Exception {
        if (!spec.commandLine().getParseResult().originalArgs().contains("--") || command.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "give the command to record after --, e.g. record -o DIR -- java -jar app.jar");
        }
        String java = Path.of(command.get(0)).getFileName().toString();
        if (!java.equals("java") && !java.equals("java.exe")) {
            throw new ParameterException(spec.commandLine(), "the command must start with a java executable, got " + command.get(0));
        }
        if (agentOptions != null && List.of(agentOptions.split(",")).stream().anyMatch(AgentOption.JFR::isSetBy)) {
            throw new ParameterException(spec.commandLine(), "--agent-options: jfr= is chosen by record (DIR/recording.jfr)");
        }
        if (dir.toString().equals("-")) {
            throw new CliProblem("record: -o is the folder for recording.jfr and its reports, so - (stdout) is not one;"
                    + " give a folder, then hopscope report DIR/recording.jfr -o - for a report on stdout");
        }
        Path jar = agent.find("record");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new CliProblem(dir + ": cannot create the record folder (" + e.getClass().getSimpleName() + ")");
        }
        if (!Files.isWritable(dir)) {
            throw new CliProblem(dir + ": the record folder is not writable");
        }
        Path jfr = dir.resolve("recording.jfr").toAbsolutePath().normalize();
        Files.deleteIfExists(jfr); // a recording left by an earlier run must not pass for this one's
        PrintWriter err = spec.commandLine().getErr();
        Path offwake = bpf ? tracerOrWhyNot(jar, err) : null;

        List<String> cmd = new ArrayList<>(command);
        cmd.add(1, "-javaagent:" + jar + "=jfr=" + jfr + (agentOptions != null && !agentOptions.isBlank() ? "," + agentOptions : "")
                + (asprof != null ? ",asprof=" + asprof : ""));
        // JFR keeps 64 frames of a stack by default, which cuts every Reactor or azure-core stack. The
        // agent raises it too; the flag is the documented way. Not when the command sets JFR's options
        // itself: a second -XX:FlightRecorderOptions would replace the user's.
        if (cmd.stream().noneMatch(a -> a.startsWith("-XX:FlightRecorderOptions"))) {
            cmd.add(1, STACK_DEPTH_FLAG);
        }
        try {
            child = new ProcessBuilder(cmd).inheritIO().start();
        } catch (IOException e) {
            throw new CliProblem("record: cannot start " + command.get(0) + " (" + e.getMessage() + ")");
        }
        // Ctrl-C reaches this JVM (and, from a terminal, the child too): the hook stops the child and still writes.
        Thread hook = new Thread(() -> {
            stopChild(err);
            finish(jfr, err);
        }, "hopscope-record-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (offwake != null) {
            events = dir.resolve("offcpu.jsonl").toAbsolutePath();
            Files.deleteIfExists(events);
            tracer = new ProcessBuilder(PYTHON, offwake.toString(), "-p", Long.toString(child.pid()), "--events", events.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("offwake.log").toFile()).start();
            err.println("record: tracing PID " + child.pid() + " with " + OFFWAKE + " (log: " + dir.resolve("offwake.log") + ")");
            err.flush();
        }
        int exit = child.waitFor();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // Shutting down already: the hook writes, finish() below waits for it.
        }
        finish(jfr, err);
        return exit;
    }

    /** offwake.py's path when --bpf can run here; otherwise null, after one line saying why. */
    private static Path tracerOrWhyNot(Path agentJar, PrintWriter err) throws InterruptedException {
        // agent/target/hopscope-agent.jar, or the release archive's lib/hopscope-agent.jar -> where bpf/ is
        Path root = AgentJar.rootOf(agentJar);
        Path offwake = root.resolve(OFFWAKE);
        String why = null;
        if (!"root".equals(System.getProperty("user.name"))) {
            why = "not running as root, which loading BPF programs needs";
        } else if (!Files.isRegularFile(offwake)) {
            why = offwake + " not found beside the agent jar's repository";
        } else if (!Files.isExecutable(Path.of(PYTHON))) {
            why = PYTHON + " not found";
        } else {
            try {
                Process p = new ProcessBuilder(PYTHON, "-c", "import bcc").redirectErrorStream(true).start();
                if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    p.destroyForcibly();
                    why = "python3 cannot import bcc (install it with bpf/setup.sh)";
                }
            } catch (IOException e) {
                why = PYTHON + " does not run (" + e.getMessage() + ")";
            }
        }
        if (why != null) {
            err.println("record: --bpf off: " + why + "; recording without the kernel's view");
            err.flush();
            return null;
        }
        return offwake;
    }

    /** Ctrl-C: SIGINT to the child (Java sends only SIGTERM and SIGKILL), SIGTERM after the grace period. */
    private void stopChild(PrintWriter err) {
        if (child == null || !child.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).start().waitFor(5, TimeUnit.SECONDS);
            if (!child.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                err.println("record: PID " + child.pid() + " still runs " + GRACE_SECONDS + " s after SIGINT; sending SIGTERM");
                err.flush();
                child.destroy();
                if (!child.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                    child.destroyForcibly();
                    child.waitFor(5, TimeUnit.SECONDS);
                }
            }
        } catch (IOException | InterruptedException e) {
            child.destroy();
        }
    }

    /** Waits for the tracer, then writes the reports; once, whether from the command or from the shutdown hook. */
    private synchronized void finish(Path jfr, PrintWriter err) {
        if (written) {
            return;
        }
        written = true;
        try {
            Path bpfEvents = waitForTracer(err);
            if (!Files.isRegularFile(jfr) || Files.size(jfr) == 0) {
                err.println("record: the command wrote no recording at " + jfr + " (did the agent start? see its stderr above)");
                err.flush();
                return;
            }
            writeReports(jfr, bpfEvents, err);
        } catch (Exception e) {
            err.println("record: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            err.flush();
        }
    }

    private Path waitForTracer(PrintWriter err) throws InterruptedException {
        if (tracer == null) {
            return null;
        }
        if (!tracer.waitFor(TRACER_FINISH_SECONDS, TimeUnit.SECONDS)) {
            try {
                new ProcessBuilder("kill", "-INT", Long.toString(tracer.pid())).start().waitFor(5, TimeUnit.SECONDS);
            } catch (IOException e) {
                tracer.destroy();
            }
            if (!tracer.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                tracer.destroyForcibly();
            }
        }
        if (tracer.exitValue() != 0 || !Files.isRegularFile(events)) {
            err.println("record: " + OFFWAKE + " failed (exit " + tracer.exitValue() + ", see " + dir.resolve("offwake.log")
                    + "); the reports have no kernel view");
            err.flush();
            return null;
        }
        return events;
    }

    private void writeReports(Path jfr, Path bpfEvents, PrintWriter err) throws Exception {
        // HTML folds every request into its hops graph and draws the worst 10, warm-up ones apart, as report
        // --format html does; JSON keeps the worst 100 and a sample of the rest, as report --format json
        // does, and text the first 5 of those.
        // Both analyses read the same file: its chunk headers are scanned once.
        ChunkScan.Result header = ChunkScan.scan(jfr);
        RecordingAnalyzer all = new RecordingAnalyzer(jfr, new AnalysisOptions(null, -1, SortField.duration, 5,
                AnalysisOptions.defaultDetailBytes()).withWarmup(Warmup.apart)).scanned(header);
        ReportFlames flames = new ReportFlames(all, null);
        BpfInput bpfInput = bpfEvents != null ? BpfInput.detect(bpfEvents) : null;
        OffCpuAttribution join = bpfEvents != null ? new OffCpuAttribution(jfr).onOverlap(flames.offWakeSink())
                .readPlacesIn(all, bpfInput)
                : null;
        Report report;
        try (ProgressBars bar = ProgressBars.reading(all, jfr)) {
            report = all.analyze();
        }
        Report bounded = new RecordingAnalyzer(jfr, new AnalysisOptions(null, AnalysisOptions.DEFAULT_WORST,
                SortField.duration, 5, AnalysisOptions.defaultDetailBytes()).sampling(AnalysisOptions.DEFAULT_SAMPLE))
                .scanned(header).analyze();
        // Text: the worst 5 steady requests of those, and the worst warm-up ones apart (TextReport splits them).
        List<Request> ranked = new ArrayList<>();
        int steady = 0;
        int warm = 0;
        List<Request> requests = bounded.requests();
        for (Request r : requests.subList(0, Math.min(bounded.kept().worst(), requests.size()))) {
            if (r.warmup() ? warm++ < Warmup.SHOWN : steady++ < 5) {
                ranked.add(r);
            }
        }
        Report worst = new Report(bounded.recording(), bounded.summary(), ranked, RequestWindow.ALL,
                RequestsKept.NOT_STATED, List.of(), Warmup.apart);
        KernelReport kernel = join != null ? join.join(bpfEvents, bpfInput) : null;
        report.recording().warnings().forEach(w -> err.println("warning: " + w));
        try (Writer w = Files.newBufferedWriter(dir.resolve("report.json"), StandardCharsets.UTF_8)) {
            JsonReport.write(bounded, kernel, w);
        }
        try (Writer w = Files.newBufferedWriter(dir.resolve("report.html"), StandardCharsets.UTF_8)) {
            HtmlReport.write(report, 10, flames.render(report), kernel, w);
        }
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("report.txt"), StandardCharsets.UTF_8))) {
            TextReport.write(worst, SortField.duration.name(), kernel, w);
        }
        err.println("record: wrote " + dir.toAbsolutePath().normalize() + "/ (recording.jfr, report.json, report.html, report.txt"
                + (bpfEvents != null ? ", offcpu.jsonl" : "") + ")");
        err.flush();
    }
}
