package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.read.JdkEventFields;
import io.hopscope.analyzer.read.JfrEvents;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import io.hopscope.analyzer.read.JfrEvent;

/**
 * The GC pauses of the recording and their join to requests: a request is charged the part of each
 * pause that overlaps it. Pauses are kept only as far back as a request in flight can reach.
 */
final class GcPauses {

    private static final int MAX_KEPT = 100_000;

    private final RecordingFacts facts;
    private final List<GcPause> phasePauses = new ArrayList<>();
    private final List<GcPause> collections = new ArrayList<>();
    private boolean unsorted;
    private long gcPauseSumNanos;
    private long phasePauseSumNanos;
    private long gcCount;

    GcPauses(RecordingFacts facts) {
        this.facts = facts;
    }

    void onPhasePause(JfrEvent e) {
        long start = e.startNanos();
        long end = e.endNanos();
        facts.jdkEvent(start, end);
        add(phasePauses, new GcPause(JdkEventFields.gcId(e), JdkEventFields.gcName(e), start, end));
        phasePauseSumNanos += end - start;
    }

    void onCollection(JfrEvent e) {
        long start = e.startNanos();
        long end = e.endNanos();
        facts.jdkEvent(start, end);
        gcCount++;
        add(collections, new GcPause(JdkEventFields.gcId(e), JdkEventFields.gcName(e), start, end));
        gcPauseSumNanos += JdkEventFields.sumOfPausesNanos(e, end - start);
    }

    private void add(List<GcPause> list, GcPause p) {
        if (!list.isEmpty() && list.get(list.size() - 1).startEpochNanos() > p.startEpochNanos()) {
            unsorted = true;
        }
        list.add(p);
    }

    /** Drops the pauses that ended before {@code keepFrom}, and before a minute back from {@code maxEnd}. */
    void prune(long keepFrom, long maxEnd) {
        for (List<GcPause> list : List.of(phasePauses, collections)) {
            // and a minute back besides, for a request whose first event the file has not given yet.
            long from = Math.min(keepFrom, maxEnd - 60_000_000_000L);
            list.removeIf(p -> p.endEpochNanos() < from);
            if (list.size() > MAX_KEPT) {
                sort();
                list.subList(0, list.size() - MAX_KEPT).clear();
            }
        }
    }

    private void sort() {
        if (unsorted) {
            phasePauses.sort(Comparator.comparingLong(GcPause::startEpochNanos));
            collections.sort(Comparator.comparingLong(GcPause::startEpochNanos));
            unsorted = false;
        }
    }

    // Pauses do not overlap each other: from the last one starting before the request ends, walk back
    // until one ends before it starts.
    void join(RequestInProgress r) {
        if (!r.ended) {
            return;
        }
        sort();
        List<GcPause> pauses = phasePauses.isEmpty() ? collections : phasePauses;
        int lo = 0;
        int hi = pauses.size();
        long end = r.endEpochNanos();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (pauses.get(mid).startEpochNanos() <= end) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo - 1; i >= 0; i--) {
            GcPause p = pauses.get(i);
            if (p.endEpochNanos() <= r.startEpochNanos) {
                break;
            }
            long overlap = Math.min(p.endEpochNanos(), end) - Math.max(p.startEpochNanos(), r.startEpochNanos);
            if (overlap > 0) {
                r.addGcPause(p, overlap);
            }
        }
    }

    long count() {
        return gcCount;
    }

    /** Total pause time: the collections' sums of pauses, or the phase pauses' when there are none. */
    long pauseNanos() {
        return gcPauseSumNanos > 0 ? gcPauseSumNanos : phasePauseSumNanos;
    }
}
