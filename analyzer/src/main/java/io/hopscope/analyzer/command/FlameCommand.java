package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.NameGlob;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.output.FlameHtml;
import io.hopscope.analyzer.output.FoldedStacks;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
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
                "  offwake  needs the eBPF join (--bpf), not in this version",
                "HTML is async-profiler's interactive flame graph (jfr-converter); folded is the collapsed format.",
                "",
                "Example: hopscope flame app.jfr --kind hops --name 'GET *' -o hops.html",
                "         hopscope flame app.jfr --kind cpu --request 42 --format folded -o cpu.folded"})
public final class FlameCommand implements Callable<Integer> {

    /** Output formats of {@code flame}. */
    enum FlameFormat { html, folded }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RECORDING.jfr", description = "A JFR recording made under the hopscope agent.")
    Path recording;

    @Option(names = "--kind", required = true, paramLabel = "KIND",
            description = "${COMPLETION-CANDIDATES}.")
    FlameKind kind;

    @ArgGroup(exclusive = true)
    Selection selection;

    /** Either a name pattern or one request. */
    static final class Selection {
        @Option(names = "--name", paramLabel = "GLOB", description = "Only requests whose name matches (* any characters, ? one).")
        String name;

        @Option(names = "--request", paramLabel = "ID", description = "Only the request with this id (as report shows it).")
        Long request;
    }

    @Option(names = "--format", defaultValue = "html", paramLabel = "FORMAT",
            description = "${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    FlameFormat format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write here instead of stdout.")
    Path output;

    @Option(names = "--bpf", paramLabel = "FILE", hidden = true)
    Path bpf;

    @Override
    public Integer call() throws Exception {
        if (kind == FlameKind.offwake || bpf != null) {
            throw new ParameterException(spec.commandLine(), (kind == FlameKind.offwake ? "--kind offwake" : "--bpf")
                    + " needs the eBPF join, which is not in this version; use cpu, wall, alloc, lock or hops");
        }
        String glob = selection == null ? null : selection.name;
        Long requestId = selection == null ? null : selection.request;
        NameGlob names = glob == null ? null : new NameGlob(glob);
        FoldedStacks stacks = new FoldedStacks();
        RecordingAnalyzer analyzer = new RecordingAnalyzer(recording,
                new AnalysisOptions(glob, kind == FlameKind.hops ? -1 : 0, SortField.start, 5, AnalysisOptions.DEFAULT_DETAIL_LIMIT));
        for (String event : kind.events) {
            analyzer.join(event, (e, id, name) -> {
                if (id != 0 && (requestId == null || requestId == id) && (names == null || names.matches(name))) {
                    kind.add(stacks, e, name);
                }
            });
        }
        Report report = analyzer.analyze();
        PrintWriter err = spec.commandLine().getErr();
        report.recording().warnings().forEach(w -> err.println("warning: " + w));
        if (kind == FlameKind.hops) {
            for (Request r : report.requests()) {
                if (requestId == null || requestId == r.id()) {
                    stacks.addHops(r);
                }
            }
        }
        if (stacks.isEmpty()) {
            err.println("warning: " + recording + ": nothing for --kind " + kind + " in the selected requests ("
                    + String.join(", ", kind.events.isEmpty() ? java.util.List.of("hopscope events") : kind.events)
                    + "); the flame graph is empty");
        }
        err.flush();
        PrintWriter out = Output.open(output, spec.commandLine().getOut());
        try {
            if (format == FlameFormat.folded) {
                stacks.write(out);
            } else {
                String what = glob != null ? glob : requestId != null ? "request " + requestId : "all requests";
                out.write(FlameHtml.render(stacks, "hopscope " + kind + " (" + kind.unit + "): " + what));
            }
        } finally {
            if (output != null) {
                out.close();
            } else {
                out.flush();
            }
        }
        return 0;
    }
}
