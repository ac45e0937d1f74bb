package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.DiffBuilder;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.analysis.kernel.KernelDiff;
import io.hopscope.analyzer.analysis.kernel.OffCpuAttribution;
import io.hopscope.analyzer.model.Diff;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.output.JsonDiff;
import io.hopscope.analyzer.output.TextDiff;
import io.hopscope.analyzer.read.BpfInput;
import io.hopscope.analyzer.read.ChunkScan;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hopscope diff}: two recordings side by side, per request name, with the ratio B/A. */
@Command(name = "diff", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Per request name present in both recordings: count, throughput, latency p50/p90/p99/max,"
                + " hops, queue delay, wake latency, blocked, allocated bytes and lock time per request;"
                + " then GC count and pause time, peak thread count; each with the ratio B/A.",
                "",
                "With --bpf-a and --bpf-b (offwake --events output of each run): off-CPU and run-queue time,"
                + " context switches and futex waits per request too.",
                "",
                "Example: hopscope diff okhttp-sync.jfr netty-sync-over-async.jfr",
                "         hopscope diff before.jfr after.jfr --from 20s",
                "         hopscope diff a.jfr b.jfr --bpf-a a.jsonl --bpf-b b.jsonl"})
public final class DiffCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A.jfr", description = "The baseline recording.")
    Path a;

    @Parameters(index = "1", paramLabel = "B.jfr", description = "The recording compared with it.")
    Path b;

    @Option(names = "--format", defaultValue = "text", converter = Format.Converter.class,
            description = "text or json (default ${DEFAULT-VALUE}).")
    Format format;

    @Mixin
    OutputOption output;

    @Mixin
    ReaderOption reader;

    @Mixin
    WindowOptions window;

    @Option(names = "--bpf-a", paramLabel = "FILE", description = "offwake --events output recorded with A.")
    Path bpfA;

    @Option(names = "--bpf-b", paramLabel = "FILE", description = "offwake --events output recorded with B.")
    Path bpfB;

    @Override
    public Integer call() throws Exception {
        if (format == Format.html) {
            throw new ParameterException(spec.commandLine(), "diff has no html format; use text or json");
        }
        if ((bpfA == null) != (bpfB == null)) {
            throw new ParameterException(spec.commandLine(), "--bpf-a and --bpf-b go together (one eBPF file per recording)");
        }
        if (bpfA != null) {
            window.refuseBesideEbpfJoin("--bpf-a, --bpf-b");
            for (Path f : List.of(bpfA, bpfB)) {
                if (BpfInput.detect(f) != BpfInput.EVENTS) {
                    throw new CliProblem(f + ": folded output has no timestamps, so no per-request figures to compare;"
                            + " give offwake --events output");
                }
            }
        }
        Diff diff = diff(a, b, window, reader);
        if (bpfA != null) {
            // Both are events input, told above.
            diff = KernelDiff.add(diff, reader.apply(new OffCpuAttribution(a)).join(bpfA, BpfInput.EVENTS),
                    reader.apply(new OffCpuAttribution(b)).join(bpfB, BpfInput.EVENTS));
        }
        PrintWriter err = spec.commandLine().getErr();
        diff.a().warnings().forEach(w -> err.println("warning: " + w));
        diff.b().warnings().forEach(w -> err.println("warning: " + w));
        err.flush();
        PrintWriter out = Output.open(output.file, spec.commandLine().getOut());
        try {
            if (format == Format.json) {
                JsonDiff.write(diff, out);
            } else {
                TextDiff.write(diff, out);
            }
        } finally {
            Output.finish(output.file, out);
        }
        return 0;
    }

    /** Each recording in the window of {@code window} (offsets count from each one's own start). */
    static Diff diff(Path a, Path b, WindowOptions window, ReaderOption reader) throws Exception {
        AnalysisOptions summaryOnly = new AnalysisOptions(null, 0, SortField.duration, 0, 0);
        ChunkScan.Result headerA = ChunkScan.scan(a);
        ChunkScan.Result headerB = ChunkScan.scan(b);
        return DiffBuilder.diff(read(a, headerA, summaryOnly.within(window.resolve(a, headerA)), reader),
                read(b, headerB, summaryOnly.within(window.resolve(b, headerB)), reader));
    }

    private static Report read(Path file, ChunkScan.Result header, AnalysisOptions options, ReaderOption reader)
            throws Exception {
        RecordingAnalyzer analyzer = new RecordingAnalyzer(file, options).scanned(header);
        reader.apply(analyzer);
        try (ProgressBars bar = ProgressBars.reading(analyzer, file)) {
            return analyzer.analyze();
        }
    }
}
