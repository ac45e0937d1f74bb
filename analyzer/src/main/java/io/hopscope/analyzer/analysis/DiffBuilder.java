package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.Diff;
import io.hopscope.analyzer.model.DiffRow;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.model.Report;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Puts two reports side by side: per request name in both, then the process-level figures. */
public final class DiffBuilder {

    /** Name of the rows that are about the whole process rather than one request name. */
    public static final String PROCESS = "*process*";

    private DiffBuilder() {
    }

    public static Diff diff(Report a, Report b) {
        Map<String, NameSummary> inB = new LinkedHashMap<>();
        b.summary().forEach(s -> inB.put(s.name(), s));
        List<DiffRow> rows = new ArrayList<>();
        List<String> onlyA = new ArrayList<>();
        for (NameSummary sa : a.summary()) {
            NameSummary sb = inB.remove(sa.name());
            if (sb == null) {
                onlyA.add(sa.name());
                continue;
            }
            String n = sa.name();
            rows.add(new DiffRow(n, "count", "", sa.count(), sb.count()));
            rows.add(new DiffRow(n, "throughput", "req/s", sa.throughputPerSecond(), sb.throughputPerSecond()));
            rows.add(new DiffRow(n, "p50", "ns", sa.p50Nanos(), sb.p50Nanos()));
            rows.add(new DiffRow(n, "p90", "ns", sa.p90Nanos(), sb.p90Nanos()));
            rows.add(new DiffRow(n, "p99", "ns", sa.p99Nanos(), sb.p99Nanos()));
            rows.add(new DiffRow(n, "max", "ns", sa.maxNanos(), sb.maxNanos()));
            rows.add(new DiffRow(n, "hops/request", "", sa.meanHops(), sb.meanHops()));
            // Per kind: a path that changed shows in handoffs; the same path at another timing
            // moves wakes to returns and back.
            rows.add(new DiffRow(n, "handoff hops/request", "", sa.meanHandoffHops(), sb.meanHandoffHops()));
            rows.add(new DiffRow(n, "wake hops/request", "", sa.meanWakeHops(), sb.meanWakeHops()));
            rows.add(new DiffRow(n, "return hops/request", "", sa.meanReturnHops(), sb.meanReturnHops()));
            if (sa.server() || sb.server()) {
                // A server on either side: the time its requests waited in its queue, apart from the
                // queue delay below, which is the application's handoffs only.
                rows.add(new DiffRow(n, "server queue/request", "ns", sa.serverQueue().meanNanos(),
                        sb.serverQueue().meanNanos()));
                rows.add(new DiffRow(n, "server queue p99", "ns", sa.serverQueue().p99Nanos(), sb.serverQueue().p99Nanos()));
            }
            rows.add(new DiffRow(n, "queue delay/request", "ns", sa.meanQueueDelayNanos(), sb.meanQueueDelayNanos()));
            rows.add(new DiffRow(n, "wake latency/request", "ns", sa.meanWakeLatencyNanos(), sb.meanWakeLatencyNanos()));
            rows.add(new DiffRow(n, "return delay/request", "ns", sa.meanReturnDelayNanos(), sb.meanReturnDelayNanos()));
            rows.add(new DiffRow(n, "blocked/request", "ns", sa.meanBlockedNanos(), sb.meanBlockedNanos()));
            rows.add(new DiffRow(n, "allocated/request", "bytes", sa.meanAllocatedBytes(), sb.meanAllocatedBytes()));
            rows.add(new DiffRow(n, "lock/request", "ns", sa.meanLockNanos(), sb.meanLockNanos()));
            rows.add(new DiffRow(n, "non-blocking-thread share", "", sa.nonBlockingShare(), sb.nonBlockingShare()));
            // What hopscope could not see: parked and monitor time no hop or wait explains.
            rows.add(new DiffRow(n, "unexplained/request", "ns", sa.meanUnexplainedNanos(), sb.meanUnexplainedNanos()));
            rows.add(new DiffRow(n, "explained share", "", sa.explainedShare(), sb.explainedShare()));
            if (sa.meanMounts() > 0 || sb.meanMounts() > 0 || sa.meanPinnedNanos() > 0 || sb.meanPinnedNanos() > 0) {
                // Virtual threads on either side: what they did on their carriers.
                rows.add(new DiffRow(n, "mounts/request", "", sa.meanMounts(), sb.meanMounts()));
                rows.add(new DiffRow(n, "mount wait/request", "ns", sa.meanMountWaitNanos(), sb.meanMountWaitNanos()));
                rows.add(new DiffRow(n, "pinned/request", "ns", sa.meanPinnedNanos(), sb.meanPinnedNanos()));
            }
        }
        RecordingInfo ia = a.recording();
        RecordingInfo ib = b.recording();
        rows.add(new DiffRow(PROCESS, "gc count", "", ia.gcCount(), ib.gcCount()));
        rows.add(new DiffRow(PROCESS, "gc pause time", "ns", ia.gcPauseNanos(), ib.gcPauseNanos()));
        rows.add(new DiffRow(PROCESS, "peak threads", "", ia.peakThreadCount(), ib.peakThreadCount()));
        rows.add(new DiffRow(PROCESS, "allocation outside requests share", "",
                ia.allocationOutsideRequestsShare(), ib.allocationOutsideRequestsShare()));
        return new Diff(ia, ib, List.copyOf(rows), List.copyOf(onlyA), List.copyOf(inB.keySet()), a.window(), b.window());
    }
}
