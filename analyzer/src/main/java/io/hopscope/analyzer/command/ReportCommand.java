package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.analysis.kernel.OffCpuAttribution;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Warmup;
import io.hopscope.analyzer.output.HtmlReport;
import io.hopscope.analyzer.output.JsonReport;
import io.hopscope.analyzer.output.TextReport;
import io.hopscope.analyzer.read.BpfInput;
import io.hopscope.analyzer.read.ChunkScan;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code hopscope report}: per-request hops, time, allocation, locks and GC from one recording. */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Per request: hops (handoffs, wakes), threads, time per thread, time blocked, queue delay,"
                + " wake latency, self time per pipeline policy, exact allocated bytes, lock contention and GC"
                + " pauses, and where hopscope was blind (parked or monitor time no hop or wait explains, and where);"
                + " and a summary per request name (count, throughput, p50/p90/p99/max, share explained, ...).",
                "Warnings (truncated recording, no hopscope events, agent errors) go to stderr.",
                "",
                "With --bpf: what the kernel saw of each request (off-CPU and run-queue time, context switches,"
                + " futex waits, who woke its threads), from bpf/offwake.py output of the same process.",
                "",
                "Example: hopscope report app.jfr --name 'GET *' --top 5 --sort hops",
                "         hopscope report app.jfr --from 20s --to 1m",
                "         hopscope report app.jfr --format json -o app.json",
                "         hopscope report app.jfr --format html -o app.html",
                "         hopscope report app.jfr --trace-id 4bf92f3577b34da6a3ce929d0e0e4736",
                "         hopscope report app.jfr --format html --trace-url 'https://tempo.example/trace/{traceId}'",
                "         hopscope report app.jfr --bpf offwake.jsonl"})
public final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    RecordingParameter recording;

    @Mixin
    ReaderOption reader;

    @Option(names = "--format", defaultValue = "text", converter = Format.Converter.class,
            description = "text, json or html (one self-contained page with timelines and flame graphs; default ${DEFAULT-VALUE}).")
    Format format;

    @Mixin
    OutputOption output;

    @Mixin
    NameOption name;

    @Mixin
    WindowOptions window;

    @Mixin
    TraceOptions trace;

    @Mixin
    KeptOptions kept;

    @Option(names = "--sort", defaultValue = "duration", paramLabel = "FIELD",
            description = "Order of the worst requests: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    SortField sort;

    @Option(names = "--warmup", paramLabel = "HOW",
            description = "Warm-up requests (their threads loaded classes): apart ranks the worst among the others and"
                    + " lists the worst 3 warm-up ones on their own, include ranks them all together, exclude leaves"
                    + " them out of every figure (default apart for text and html, include for json, where each request"
                    + " says whether it is warm-up).")
    Warmup warmup;

    @Mixin
    DetailMemoryOption detailMemory;

    @Mixin
    BpfOption bpf;

    @Option(names = "--stats", description = "Print the analyzer's own wall time and peak heap on stderr.")
    boolean stats;

    @Override
    public Integer call() throws Exception {
        int defaultTop = format == Format.text ? 5 : format == Format.html ? 10 : AnalysisOptions.DEFAULT_WORST;
        int shown = kept.top(defaultTop);
        int sample = kept.sample(format == Format.json ? AnalysisOptions.DEFAULT_SAMPLE : 0);
        if (format == Format.html && sample > 0) {
            throw new ParameterException(spec.commandLine(), "--sample is for text and json (html draws the worst --top)");
        }
        if (trace.traceUrl != null && format != Format.html) {
            throw new ParameterException(spec.commandLine(), "--trace-url is for --format html (its links)");
        }
        long t0 = System.nanoTime();
        BpfInput bpfInput = null;
        if (bpf.isSet()) {
            window.refuseBesideEbpfJoin("--bpf");
            bpfInput = BpfInput.detect(bpf.file); // a wrong file fails before the recording is read
        }
        // html folds every request into its hops flame graph and draws the first `shown` of them.
        ChunkScan.Result header = ChunkScan.scan(recording.file);
        RecordingAnalyzer analyzer = new RecordingAnalyzer(recording.file,
                new AnalysisOptions(name.glob, format == Format.html ? -1 : shown, sort, 5,
                        detailMemory.bytes())
                        .within(window.resolve(recording.file, header)).sampling(sample)
                        .withWarmup(warmup != null ? warmup : format == Format.json ? Warmup.include : Warmup.apart)
                        .inTrace(trace.traceId)).scanned(header);
        reader.apply(analyzer);
        ReportFlames flames = format == Format.html ? new ReportFlames(analyzer, name.glob) : null;
        OffCpuAttribution join = null;
        if (bpf.isSet()) {
            join = reader.apply(new OffCpuAttribution(recording.file)).readPlacesIn(analyzer, bpfInput);
            if (flames != null) {
                join.onOverlap(flames.offWakeSink());
            }
        }
        Report report;
        try (ProgressBars bar = ProgressBars.reading(analyzer, recording.file)) {
            report = analyzer.analyze();
        }
        KernelReport kernel = join != null ? join.join(bpf.file, bpfInput) : null;
        PrintWriter err = spec.commandLine().getErr();
        report.recording().warnings().forEach(w -> err.println("warning: " + w));
        err.flush();
        PrintWriter out = Output.open(output.file, spec.commandLine().getOut());
        try {
            if (format == Format.json) {
                JsonReport.write(report, kernel, out);
            } else if (format == Format.html) {
                HtmlReport.write(report, shown < 0 ? Integer.MAX_VALUE : shown, flames.render(report), kernel,
                        trace.traceUrl, out);
            } else {
                TextReport.write(report, sort.name(), kernel, out);
            }
        } finally {
            Output.finish(output.file, out);
        }
        if (stats) {
            err.printf(Locale.ROOT, "stats: %.2f s wall (%s), heap pools' peak sum %.1f MB, max heap %.0f MB%n",
                    (System.nanoTime() - t0) / 1e9, analyzer.passTimes(), peakHeapBytes() / 1e6,
                    Runtime.getRuntime().maxMemory() / 1e6);
            err.flush();
        }
        return 0;
    }

    /** Sum of the heap pools' peak usage: what the process needed, whatever -Xmx allowed. */
    static long peakHeapBytes() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
