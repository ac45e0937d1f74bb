package io.hopscope.analyzer.analysis.kernel;

import io.hopscope.analyzer.analysis.DiffBuilder;
import io.hopscope.analyzer.model.Diff;
import io.hopscope.analyzer.model.DiffRow;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.KernelSummary;
import java.util.ArrayList;
import java.util.List;

/** Adds the kernel figures per request name (from {@code --bpf-a}, {@code --bpf-b}) to a {@link Diff}, after each name's rows. */
public final class KernelDiff {

    private KernelDiff() {
    }

    public static Diff add(Diff diff, KernelReport a, KernelReport b) {
        List<DiffRow> rows = new ArrayList<>();
        List<DiffRow> in = diff.rows();
        for (int i = 0; i < in.size(); i++) {
            DiffRow row = in.get(i);
            rows.add(row);
            boolean lastOfName = i + 1 == in.size() || !in.get(i + 1).name().equals(row.name());
            if (lastOfName && !DiffBuilder.PROCESS.equals(row.name())) {
                KernelSummary sa = a.summary(row.name());
                KernelSummary sb = b.summary(row.name());
                if (sa != null && sb != null) {
                    String n = row.name();
                    rows.add(new DiffRow(n, "off-CPU/request", "ns", sa.meanOffCpuNanos(), sb.meanOffCpuNanos()));
                    rows.add(new DiffRow(n, "run queue/request", "ns", sa.meanRunQueueNanos(), sb.meanRunQueueNanos()));
                    rows.add(new DiffRow(n, "context switches/request", "", sa.meanContextSwitches(), sb.meanContextSwitches()));
                    rows.add(new DiffRow(n, "futex waits/request", "", sa.meanFutexWaits(), sb.meanFutexWaits()));
                    if (sa.incomplete() > 0 || sb.incomplete() > 0) {
                        // The means above include them as lower bounds.
                        rows.add(new DiffRow(n, "requests with lost eBPF records", "", sa.incomplete(), sb.incomplete()));
                    }
                }
            }
        }
        return new Diff(diff.a(), diff.b(), List.copyOf(rows), diff.onlyInA(), diff.onlyInB(), diff.windowA(),
                diff.windowB());
    }
}
