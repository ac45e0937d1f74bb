package io.hopscope.analyzer.analysis;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The segments of the requests still in flight, per Java thread, sorted by start: the sliding
 * window the single pass joins JDK events against. Segments of finished requests are dropped at each
 * flush point ({@link #prune()}), so its size follows the requests in flight, not the file.
 */
final class SegmentWindow {

    private static final class Lane {
        long[] starts = new long[8];
        long[] ends = new long[8];
        RequestAcc[] owners = new RequestAcc[8];
        int n;

        boolean sorted = true;

        void add(long start, long end, RequestAcc owner) {
            if (n == starts.length) {
                starts = Arrays.copyOf(starts, n * 2);
                ends = Arrays.copyOf(ends, n * 2);
                owners = Arrays.copyOf(owners, n * 2);
            }
            // The file gives one thread's segments mostly in order, but whole buffers can come late
            // (about one segment in eight on the benchmark's file): append, sort before lookups.
            if (n > 0 && start < starts[n - 1]) {
                sorted = false;
            }
            starts[n] = start;
            ends[n] = end;
            owners[n] = owner;
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
            // TimSort: linear on the long ordered runs this gets.
            Arrays.sort(order, (a, b) -> Long.compare(starts[a], starts[b]));
            long[] s = new long[starts.length];
            long[] e = new long[starts.length];
            RequestAcc[] o = new RequestAcc[starts.length];
            for (int i = 0; i < n; i++) {
                s[i] = starts[order[i]];
                e[i] = ends[order[i]];
                o[i] = owners[order[i]];
            }
            starts = s;
            ends = e;
            owners = o;
            sorted = true;
        }

        void prune() {
            int kept = 0;
            for (int i = 0; i < n; i++) {
                if (!owners[i].finished) {
                    starts[kept] = starts[i];
                    ends[kept] = ends[i];
                    owners[kept++] = owners[i];
                }
            }
            Arrays.fill(owners, kept, n, null);
            n = kept;
            if (starts.length > 64 && n < starts.length / 4) {
                starts = Arrays.copyOf(starts, starts.length / 2);
                ends = Arrays.copyOf(ends, ends.length / 2);
                owners = Arrays.copyOf(owners, owners.length / 2);
            }
        }

        int lastStartAtOrBefore(long t) {
            int lo = 0;
            int hi = n - 1;
            int ans = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (starts[mid] <= t) {
                    ans = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return ans;
        }
    }

    private final Map<Long, Lane> lanes = new HashMap<>();

    void add(long javaThreadId, long startEpochNanos, long endEpochNanos, RequestAcc owner) {
        lanes.computeIfAbsent(javaThreadId, k -> new Lane()).add(startEpochNanos, endEpochNanos, owner);
    }

    /** Sorts the lanes that need it; call before lookups. */
    void sort() {
        lanes.values().forEach(Lane::sort);
    }

    /** Drops the segments of finished requests, and the lanes of threads with none left. */
    void prune() {
        lanes.values().removeIf(lane -> {
            lane.prune();
            return lane.n == 0;
        });
    }

    /** The request whose segment on that thread overlaps [start, end] the most (contains it, for a point), or null. */
    RequestAcc find(long javaThreadId, long startEpochNanos, long endEpochNanos) {
        Lane lane = lanes.get(javaThreadId);
        if (lane == null) {
            return null;
        }
        RequestAcc best = null;
        long bestOverlap = Long.MIN_VALUE;
        // Segments of one thread do not overlap, so only the few that start before the end and still
        // reach the start can match; the walk is capped in case a recording breaks that rule.
        int i = lane.lastStartAtOrBefore(endEpochNanos);
        for (int steps = 0; i >= 0 && steps < 64; i--, steps++) {
            if (lane.ends[i] < startEpochNanos) {
                break;
            }
            long overlap = Math.min(endEpochNanos, lane.ends[i]) - Math.max(startEpochNanos, lane.starts[i]);
            if (overlap > bestOverlap) {
                bestOverlap = overlap;
                best = lane.owners[i];
            }
        }
        return best;
    }

    /** Overlap in nanoseconds between [start, end] and that request's segments on that thread. */
    long overlapNanos(long javaThreadId, long startEpochNanos, long endEpochNanos, RequestAcc owner) {
        Lane lane = lanes.get(javaThreadId);
        if (lane == null) {
            return 0;
        }
        long sum = 0;
        int i = lane.lastStartAtOrBefore(endEpochNanos);
        for (int steps = 0; i >= 0 && steps < 64 && lane.ends[i] >= startEpochNanos; i--, steps++) {
            if (lane.owners[i] == owner) {
                sum += Math.max(0, Math.min(endEpochNanos, lane.ends[i]) - Math.max(startEpochNanos, lane.starts[i]));
            }
        }
        return sum;
    }
}
