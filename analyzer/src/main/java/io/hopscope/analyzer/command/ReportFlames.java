package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.NameGlob;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.model.OffCpuOverlap;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.output.FlameHtml;
import io.hopscope.analyzer.output.FoldedStacks;
import io.hopscope.analyzer.output.HtmlReport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The flame graphs the HTML report embeds: hops from the report's requests, offwake from the eBPF
 * join when {@code --bpf} gives events, and cpu, alloc and lock from JDK events joined in the
 * analyzer's second pass (so the report reads the file no more often).
 */
final class ReportFlames {

    private static final List<FlameKind> JOINED = List.of(FlameKind.cpu, FlameKind.alloc, FlameKind.lock);

    private final Map<FlameKind, FoldedStacks> stacks = new EnumMap<>(FlameKind.class);
    private final FoldedStacks offWake = new FoldedStacks();
    // offwake --stack-every, as its sampled intervals' weight says: the offwake graph's title says it.
    private int offWakeStackEvery = 1;
    private final NameGlob names;

    /** Registers the joins on {@code analyzer}; call before it analyzes. */
    ReportFlames(RecordingAnalyzer analyzer, String nameGlob) {
        names = nameGlob == null ? null : new NameGlob(nameGlob);
        for (FlameKind kind : JOINED) {
            FoldedStacks s = stacks.computeIfAbsent(kind, k -> new FoldedStacks());
            for (String event : kind.events) {
                analyzer.join(event, (sample, id, name) -> {
                    if (id != 0 && (names == null || names.matches(name))) {
                        s.addSample(name, sample);
                    }
                });
            }
        }
    }

    /** Where the eBPF join ({@code --bpf} events) hands its off-CPU parts, for the offwake graph. */
    Consumer<OffCpuOverlap> offWakeSink() {
        return o -> {
            if (names == null || names.matches(o.requestName())) {
                offWake.addOffWake(o);
                offWakeStackEvery = Math.max(offWakeStackEvery, o.interval().stackWeight());
            }
        };
    }

    /** The pages, hops first; kinds without any sample are left out. Reads every request of the report once. */
    List<HtmlReport.Flame> render(Report report) throws IOException {
        FoldedStacks hops = new FoldedStacks();
        for (Request r : report.requests()) {
            hops.addHops(r);
        }
        List<HtmlReport.Flame> flames = new ArrayList<>();
        add(flames, FlameKind.hops, hops, "");
        add(flames, FlameKind.offwake, offWake, offWakeStackEvery > 1 ? "; stacks of 1 interval in " + offWakeStackEvery
                + ", each weighted x" + offWakeStackEvery : "");
        for (FlameKind kind : JOINED) {
            add(flames, kind, stacks.get(kind), "");
        }
        return flames;
    }

    private static void add(List<HtmlReport.Flame> flames, FlameKind kind, FoldedStacks s, String sampling)
            throws IOException {
        if (!s.isEmpty()) {
            String title = "hopscope " + kind + " (" + kind.unit + sampling + ")";
            flames.add(new HtmlReport.Flame(title, FlameHtml.render(s, title)));
        }
    }
}
