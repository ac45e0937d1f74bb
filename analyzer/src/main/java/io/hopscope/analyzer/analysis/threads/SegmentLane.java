package io.hopscope.analyzer.analysis.threads;

import java.util.Arrays;

/**
 * One thread's segments as parallel primitive arrays sorted by start, the payload (whose request a
 * segment is) kept by the subclass in an array of its own type so an int slot is never boxed.
 */
public abstract class SegmentLane {

    protected long[] starts;
    protected long[] ends;
    protected int n;
    private boolean sorted = true;

    protected SegmentLane(int capacity) {
        starts = new long[capacity];
        ends = new long[capacity];
    }

    /** Resizes the payload array to {@code length}, keeping its first {@code n} entries. */
    protected abstract void resizePayload(int length);

    /** Rearranges the payload so entry {@code from + k} is the old {@code order[k]} (with {@link #permute}). */
    protected abstract void reorderPayload(int[] order, int from);

    /** Appends a segment and returns its index, where the subclass stores its payload. */
    protected final int append(long start, long end) {
        if (n == starts.length) {
            starts = Arrays.copyOf(starts, n * 2);
            ends = Arrays.copyOf(ends, n * 2);
            resizePayload(n * 2);
        }
        // The file gives one thread's segments mostly in order, but whole buffers can come late
        // (about one segment in eight on the benchmark's file): append, sort before lookups.
        if (n > 0 && start < starts[n - 1]) {
            sorted = false;
        }
        starts[n] = start;
        ends[n] = end;
        return n++;
    }

    protected final void sort() {
        if (sorted || n < 2) {
            sorted = true;
            return;
        }
        // The lane is sorted up to its first late segment; a stable sort of the rest merged with that
        // prefix is the order a stable sort of the whole gives (ties keep their order of appending).
        // The prefix up to the earliest late start stays in place: only the tail behind it is sorted and
        // moved, in int indices with no comparator (a boxed Integer[] sort of the whole lane with a
        // lambda cost 3% of report's CPU on a 240 MB recording, and its garbage).
        int prefix = 1;
        while (prefix < n && starts[prefix] >= starts[prefix - 1]) {
            prefix++;
        }
        long earliestLate = Long.MAX_VALUE;
        for (int i = prefix; i < n; i++) {
            earliestLate = Math.min(earliestLate, starts[i]);
        }
        // The first of the prefix after the earliest late start (ties stay before it: they came first).
        int from = lastStartAtOrBefore(starts, prefix, earliestLate) + 1;
        int m = n - from;
        int[] order = new int[m];
        int[] scratch = new int[m];
        for (int k = 0; k < m; k++) {
            order[k] = from + k;
        }
        mergeSort(order, scratch, prefix - from, m);
        merge(order, scratch, 0, prefix - from, m);
        permute(starts, order, from);
        permute(ends, order, from);
        reorderPayload(order, from);
        sorted = true;
    }

    // Stable merge sort by start of order[from, to), using scratch alike; a run already in order
    // (the common case: whole buffers come late, each in order) costs one comparison per level.
    private void mergeSort(int[] order, int[] scratch, int from, int to) {
        if (to - from < 2) {
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(order, scratch, from, mid);
        mergeSort(order, scratch, mid, to);
        merge(order, scratch, from, mid, to);
    }

    // Merges the sorted order[from, mid) and order[mid, to), the left one first on equal starts.
    private void merge(int[] order, int[] scratch, int from, int mid, int to) {
        if (mid <= from || mid >= to || starts[order[mid - 1]] <= starts[order[mid]]) {
            return;
        }
        System.arraycopy(order, from, scratch, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && starts[scratch[i]] <= starts[scratch[j]])) {
                order[k] = scratch[i++];
            } else {
                order[k] = scratch[j++];
            }
        }
    }

    /** Puts {@code a[order[k]]} at {@code from + k}, for every k of {@code order}. */
    protected static void permute(long[] a, int[] order, int from) {
        long[] p = new long[order.length];
        for (int k = 0; k < order.length; k++) {
            p[k] = a[order[k]];
        }
        System.arraycopy(p, 0, a, from, p.length);
    }

    /** The same for an int payload. */
    protected static void permute(int[] a, int[] order, int from) {
        int[] p = new int[order.length];
        for (int k = 0; k < order.length; k++) {
            p[k] = a[order[k]];
        }
        System.arraycopy(p, 0, a, from, p.length);
    }

    /** The same for an object payload. */
    protected static void permute(Object[] a, int[] order, int from) {
        Object[] p = new Object[order.length];
        for (int k = 0; k < order.length; k++) {
            p[k] = a[order[k]];
        }
        System.arraycopy(p, 0, a, from, p.length);
    }

    /** Index of the segment that overlaps [start, end] the most (contains it, for a point), or -1. */
    public final int mostOverlapping(long startEpochNanos, long endEpochNanos) {
        int best = -1;
        long bestOverlap = Long.MIN_VALUE;
        // Segments of one thread do not overlap, so only the few that start before the end and still
        // reach the start can match; the walk is capped in case a recording breaks that rule.
        int i = lastStartAtOrBefore(endEpochNanos);
        for (int steps = 0; i >= 0 && steps < 64; i--, steps++) {
            if (ends[i] < startEpochNanos) {
                break;
            }
            long overlap = Math.min(endEpochNanos, ends[i]) - Math.max(startEpochNanos, starts[i]);
            if (overlap > bestOverlap) {
                bestOverlap = overlap;
                best = i;
            }
        }
        return best;
    }

    /** How many segments it holds. */
    public final int size() {
        return n;
    }

    /** Start of segment {@code i}. */
    public final long start(int i) {
        return starts[i];
    }

    /** End of segment {@code i}. */
    public final long end(int i) {
        return ends[i];
    }

    public final int lastStartAtOrBefore(long t) {
        return lastStartAtOrBefore(starts, n, t);
    }

    /** Index of the last of the first {@code n} sorted {@code starts} that is at or before t, or -1. */
    public static int lastStartAtOrBefore(long[] starts, int n, long t) {
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
