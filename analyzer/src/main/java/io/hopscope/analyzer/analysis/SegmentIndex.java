package io.hopscope.analyzer.analysis;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Segments of all requests, per thread, as sorted primitive arrays (24 bytes a segment): what lets a
 * JDK event (or an eBPF interval, or an execution sample) be attributed to the request whose segment
 * was running on the same thread at that time, without keeping the events themselves.
 *
 * <p>Keyed by the Java thread id, not the OS id: a virtual thread's events carry its carrier's OS id,
 * so one OS id can stand for many threads; both sides of this join are JFR events, which always have
 * the Java id. The eBPF join maps OS ids to Java ids through the segments' {@code ThreadRef}s.
 */
public final class SegmentIndex {

    private static final class Lane {
        long[] starts = new long[16];
        long[] ends = new long[16];
        int[] slots = new int[16];
        int n;
        boolean sorted = true;

        void add(long start, long end, int slot) {
            if (n == starts.length) {
                starts = Arrays.copyOf(starts, n * 2);
                ends = Arrays.copyOf(ends, n * 2);
                slots = Arrays.copyOf(slots, n * 2);
            }
            if (n > 0 && start < starts[n - 1]) {
                sorted = false;
            }
            starts[n] = start;
            ends[n] = end;
            slots[n] = slot;
            n++;
        }

        void sort() {
            if (sorted) {
                return;
            }
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Long.compare(starts[a], starts[b]));
            long[] s = new long[n];
            long[] e = new long[n];
            int[] r = new int[n];
            for (int i = 0; i < n; i++) {
                s[i] = starts[order[i]];
                e[i] = ends[order[i]];
                r[i] = slots[order[i]];
            }
            starts = s;
            ends = e;
            slots = r;
            sorted = true;
        }
    }

    private final Map<Long, Lane> lanes = new HashMap<>();
    private long segments;

    /** Adds a segment of request {@code slot} on thread {@code javaThreadId}. */
    public void add(long javaThreadId, long startEpochNanos, long endEpochNanos, int slot) {
        lanes.computeIfAbsent(javaThreadId, k -> new Lane()).add(startEpochNanos, endEpochNanos, slot);
        segments++;
    }

    /** Sorts the lanes; call once after the last {@link #add} and before any lookup. */
    public void freeze() {
        lanes.values().forEach(Lane::sort);
    }

    public long size() {
        return segments;
    }

    /** The request slot whose segment on that thread overlaps [start, end] the most (contains it, for a point), or -1. */
    public int find(long javaThreadId, long startEpochNanos, long endEpochNanos) {
        Lane lane = lanes.get(javaThreadId);
        if (lane == null || lane.n == 0) {
            return -1;
        }
        int best = -1;
        long bestOverlap = Long.MIN_VALUE;
        // Segments of one thread do not overlap, so only the few that start before the end and still
        // reach the start can match; the walk is capped in case a recording breaks that rule.
        int i = lastStartAtOrBefore(lane, endEpochNanos);
        for (int steps = 0; i >= 0 && steps < 64; i--, steps++) {
            if (lane.ends[i] < startEpochNanos) {
                break;
            }
            long overlap = Math.min(endEpochNanos, lane.ends[i]) - Math.max(startEpochNanos, lane.starts[i]);
            if (overlap > bestOverlap) {
                bestOverlap = overlap;
                best = lane.slots[i];
            }
        }
        return best;
    }

    /** Overlap in nanoseconds between [start, end] and that request's segments on that thread. */
    public long overlapNanos(long javaThreadId, long startEpochNanos, long endEpochNanos, int slot) {
        Lane lane = lanes.get(javaThreadId);
        if (lane == null) {
            return 0;
        }
        long sum = 0;
        int i = lastStartAtOrBefore(lane, endEpochNanos);
        for (int steps = 0; i >= 0 && steps < 64 && lane.ends[i] >= startEpochNanos; i--, steps++) {
            if (lane.slots[i] == slot) {
                sum += Math.max(0, Math.min(endEpochNanos, lane.ends[i]) - Math.max(startEpochNanos, lane.starts[i]));
            }
        }
        return sum;
    }

    private static int lastStartAtOrBefore(Lane lane, long t) {
        int lo = 0;
        int hi = lane.n - 1;
        int ans = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (lane.starts[mid] <= t) {
                ans = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return ans;
    }
}
