package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.NameGlob;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.analysis.kernel.OffCpuAttribution;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.output.FlameHtml;
import io.hopscope.analyzer.output.FoldedStacks;
import io.hopscope.analyzer.output.WindowText;
import io.hopscope.analyzer.read.BpfInput;
import io.hopscope.analyzer.read.ChunkScan;
import io.hopscope.analyzer.read.FoldedReader;
import io.hopscope.analyzer.read.RecordingProblem;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code hopscope flame}: a flame graph of the selected requests only, as HTML or folded stacks. */
@Command(name = "flame", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"A flame graph restricted to requests: each stack starts with the request's name.",
                "  cpu    JFR execution samples (and async-profiler's, when the agent ran with asprof=cpu)",
                "  wall   samples of threads in every state (native-method samples, async-profiler's wall clock)",
                "  alloc  allocation samples weighted by bytes",
                "  lock   monitor contention weighted by the time blocked",
                "  hops   request name > pipeline policy > thread pool > thread, weighted by time; queue delay"
                        + " and wake latency of each hop beside",
                "  offwake  off-CPU time from bpf/offwake.py (--bpf): the wakee's stack, '--', the waker's stack above,"
                        + " weighted by the time off CPU inside the requests (folded input: the whole process)",
                "HTML is async-profiler's interactive flame graph (jfr-converter); folded is the collapsed format.",
                "",
                "Example: hopscope flame app.jfr --kind hops --name 'GET *' -o hops.html",
                "         hopscope flame app.jfr --kind cpu --request 42 --format folded -o cpu.folded",
                "         hopscope flame app.jfr --kind alloc --from 20s -o alloc.html",
                "         hopscope flame app.jfr --kind offwake --bpf offwake.jsonl --name 'GET *' -o offwake.html"})
public final class FlameCommand implements Callable<Integer> {

    /** Output formats of {@code flame}. */
    enum FlameFormat { html, folded }

    @Spec
    CommandSpec spec;

    @Mixin
    RecordingParameter recording;

    @Mixin
    ReaderOption reader;

    @Option(names = "--kind", required = true, paramLabel = "KIND",
            description = "${COMPLETION-CANDIDATES}.")
    FlameKind kind;

    @Mixin
    NameOption name;

    @Option(names = "--request", paramLabel = "ID", description = "Only the request with this id (as report shows it);"
            + " not with --name.")
    Long request;

    @Mixin
    WindowOptions window;

    @Option(names = "--format", defaultValue = "html", paramLabel = "FORMAT",
            description = "${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    FlameFormat format;

    @Mixin
    OutputOption output;

    @Mixin
    BpfOption bpf;

    @Override
    public Integer call() throws Exception {
        if (name.glob != null && request != null) {
            throw new ParameterException(spec.commandLine(), "--name and --request are mutually exclusive (give one)");
        }
        if (kind == FlameKind.offwake && !bpf.isSet()) {
            throw new ParameterException(spec.commandLine(), "--kind offwake needs --bpf FILE (the --events output of"
                    + " bpf/offwake.py recorded with the application)");
        }
        if (kind != FlameKind.offwake && bpf.isSet()) {
            throw new ParameterException(spec.commandLine(), "--bpf is only for --kind offwake");
        }
        if (kind == FlameKind.offwake) {
            window.refuseBesideEbpfJoin("--kind offwake");
        }
        String glob = name.glob;
        Long requestId = request;
        NameGlob names = glob == null ? null : new NameGlob(glob);
        FoldedStacks stacks = new FoldedStacks();
        PrintWriter err = spec.commandLine().getErr();
        String what = glob != null ? glob : requestId != null ? "request " + requestId : "all requests";
        if (kind == FlameKind.offwake) {
            what = offWake(stacks, names, requestId, err, what);
        } else {
            RequestWindow applied = joined(stacks, glob, names, requestId, err);
            if (!applied.isAll()) {
                err.println("note: " + WindowText.line(applied));
                what += ", " + applied.asked();
            }
        }
        if (stacks.isEmpty()) {
            err.println("warning: " + recording.file + ": nothing for --kind " + kind + " in the selected requests ("
                    + String.join(", ", kind == FlameKind.offwake ? List.of(bpf.file.toString())
                            : kind.events.isEmpty() ? List.of("hopscope events") : kind.events)
                    + "); the flame graph is empty");
        }
        err.flush();
        PrintWriter out = Output.open(output.file, spec.commandLine().getOut());
        try {
            if (format == FlameFormat.folded) {
                stacks.write(out);
            } else {
                out.write(FlameHtml.render(stacks, "hopscope " + kind + " (" + kind.unit + "): " + what));
            }
        } finally {
            Output.finish(output.file, out);
        }
        return 0;
    }

    /** Returns the window applied. */
    private RequestWindow joined(FoldedStacks stacks, String glob, NameGlob names, Long requestId, PrintWriter err)
            throws Exception {
        ChunkScan.Result header = ChunkScan.scan(recording.file);
        RecordingAnalyzer analyzer = new RecordingAnalyzer(recording.file,
                new AnalysisOptions(glob, kind == FlameKind.hops ? -1 : 0, SortField.start, 5, AnalysisOptions.defaultDetailBytes())
                        .within(window.resolve(recording.file, header))).scanned(header);
        reader.apply(analyzer);
        for (String event : kind.events) {
            analyzer.join(event, (sample, id, name) -> {
                if (id != 0 && (requestId == null || requestId == id) && (names == null || names.matches(name))) {
                    stacks.addSample(name, sample);
                }
            });
        }
        Report report;
        try (ProgressBars bar = ProgressBars.reading(analyzer, recording.file)) {
            report = analyzer.analyze();
        }
        report.recording().warnings().forEach(w -> err.println("warning: " + w));
        if (kind == FlameKind.hops) {
            for (Request r : report.requests()) {
                if (requestId == null || requestId == r.id()) {
                    stacks.addHops(r);
                }
            }
        }
        return report.window();
    }

    // Events input: the kernel join's own attribution (OS tid and time, through ClockSync), so the picture
    // counts exactly what report --bpf counts. Folded input has neither, so it is drawn whole.
    private String offWake(FoldedStacks stacks, NameGlob names, Long requestId, PrintWriter err, String what)
            throws Exception {
        BpfInput input = BpfInput.detect(bpf.file);
        if (input == BpfInput.FOLDED) {
            if (!java.nio.file.Files.isRegularFile(recording.file)) {
                throw new RecordingProblem(recording.file + ": no such file");
            }
            err.println("note: " + bpf.file + ": folded offwaketime output has no timestamps or thread ids, so it cannot be"
                    + " restricted to requests" + (names != null || requestId != null ? " (--name/--request ignored)" : "")
                    + "; drawing the whole process (record with offwake --events for requests)");
            FoldedReader.forEachStack(bpf.file, (frames, micros) -> {
                List<String> kept = new ArrayList<>();
                for (String f : frames) {
                    if (!f.isEmpty()) {
                        kept.add(f);
                    }
                }
                stacks.add(kept, micros * 1000);
            });
            return "whole process, not restricted to requests";
        }
        KernelReport kernel = reader.apply(new OffCpuAttribution(recording.file)).onOverlap(o -> {
            if ((requestId == null || requestId == o.requestId()) && (names == null || names.matches(o.requestName()))) {
                stacks.addOffWake(o);
            }
        }).join(bpf.file, input);
        kernel.notes().forEach(n -> err.println("note: " + n));
        if (!kernel.stackSampling().isEmpty()) {
            err.println("note: " + bpf.file + ": " + kernel.stackSampling());
            return what + "; " + kernel.stackSampling();
        }
        return what;
    }
}
