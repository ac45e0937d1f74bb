package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.analysis.kernel.OffCpuAttribution;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.OffCpuOverlap;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.output.KeptText;
import io.hopscope.analyzer.output.TraceJson;
import io.hopscope.analyzer.output.WindowText;
import io.hopscope.analyzer.read.BpfInput;
import io.hopscope.analyzer.read.ChunkScan;
import io.hopscope.analyzer.read.RecordingProblem;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hopscope trace}: a thread timeline with hop arrows, for the Perfetto UI or chrome://tracing. */
@Command(name = "trace", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes the requests as Chrome Trace Event JSON: one track per thread, a slice per segment,"
                + " policy spans and waits as slices, and each hop as a flow arrow from the handing-over thread to"
                + " the receiver (handoff) or from the waker to the woken (wake).",
                "With --bpf (bpf/offwake.py --events of the same process): the time each thread of a request spent"
                        + " off CPU inside it, as slices in its segments and waits, with the run-queue part nested.",
                "Open it in https://ui.perfetto.dev (Open trace file) or chrome://tracing (Load).",
                "",
                "By default the worst 100 requests by duration and a sample of the rest (every k-th by id, at most"
                        + " 400); --top all draws every request.",
                "",
                "Example: hopscope trace app.jfr --name 'GET *' -o trace.json",
                "         hopscope trace app.jfr --top all -o trace.json",
                "         hopscope trace app.jfr --from 01:25:10 --to 01:25:12 -o trace.json",
                "         hopscope trace app.jfr --bpf offwake.jsonl -o trace.json"})
public final class TraceCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    RecordingParameter recording;

    @Mixin
    ReaderOption reader;

    @Mixin
    OutputOption output;

    @Mixin
    NameOption name;

    @Mixin
    WindowOptions window;

    @Mixin
    KeptOptions kept;

    @Mixin
    DetailMemoryOption detailMemory;

    @Mixin
    BpfOption bpf;

    @Override
    public Integer call() throws Exception {
        BpfInput bpfInput = null;
        if (bpf.isSet()) {
            window.refuseBesideEbpfJoin("--bpf");
            bpfInput = BpfInput.detect(bpf.file);
        }
        if (bpfInput == BpfInput.FOLDED) {
            throw new RecordingProblem(bpf.file + ": folded offwaketime output has no timestamps, so it cannot be drawn on"
                    + " a timeline (record with offwake --events)");
        }
        int top = kept.top(AnalysisOptions.DEFAULT_WORST);
        ChunkScan.Result header = ChunkScan.scan(recording.file);
        RecordingAnalyzer analyzer = new RecordingAnalyzer(recording.file,
                new AnalysisOptions(name.glob, top, top < 0 ? SortField.start : SortField.duration, 5,
                        detailMemory.bytes())
                        .within(window.resolve(recording.file, header)).sampling(kept.sample(AnalysisOptions.DEFAULT_SAMPLE)))
                .scanned(header);
        reader.apply(analyzer);
        OffCpuAttribution join = bpf.isSet()
                ? reader.apply(new OffCpuAttribution(recording.file)).readPlacesIn(analyzer, bpfInput) : null;
        Report report = analyzer.analyze();
        PrintWriter err = spec.commandLine().getErr();
        report.recording().warnings().forEach(w -> err.println("warning: " + w));
        if (!report.window().isAll()) {
            err.println("note: " + WindowText.line(report.window()));
        }
        if (report.kept().leftOut() > 0) {
            err.println("note: " + KeptText.line(report.kept()) + "; --top all draws every one");
        }
        List<OffCpuOverlap> offCpu = new ArrayList<>();
        if (bpf.isSet()) {
            // Only the requests the trace draws: the same join as report --bpf, kept per part for the slices.
            Set<Long> drawn = new HashSet<>();
            report.requests().stream().filter(Request::detailKept).forEach(r -> drawn.add(r.id()));
            KernelReport kernel = join.onOverlap(o -> {
                if (drawn.contains(o.requestId())) {
                    // Kept until the trace is written: without the stacks, which are most of an interval's size.
                    offCpu.add(new OffCpuOverlap(o.interval().withoutStacks(), o.requestId(), o.requestName(), o.during(),
                            o.thread(), o.waker(), o.fromEpochNanos(), o.toEpochNanos()));
                }
            }).join(bpf.file, bpfInput);
            kernel.notes().forEach(n -> err.println("note: " + n));
        }
        err.flush();
        PrintWriter out = Output.open(output.file, spec.commandLine().getOut());
        try {
            TraceJson.write(report, offCpu, out);
        } finally {
            Output.finish(output.file, out);
        }
        return 0;
    }
}
