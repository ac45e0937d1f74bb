package io.hopscope.analyzer.analysis.threads;

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

    /** One thread's segments with the request slot of each. */
    private static final class Lane extends SegmentLane {
        int[] slots = new int[16];

        Lane() {
            super(16);
        }

        void add(long start, long end, int slot) {
            // append may grow slots, so take the index before naming the array.
            int i = append(start, end);
            slots[i] = slot;
        }

        @Override
        protected void resizePayload(int length) {
            slots = Arrays.copyOf(slots, length);
        }

        @Override
        protected void reorderPayload(Integer[] order) {
            slots = permuted(slots, order, n);
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
        if (lane == null) {
            return -1;
        }
        int i = lane.mostOverlapping(startEpochNanos, endEpochNanos);
        return i < 0 ? -1 : lane.slots[i];
    }

    /** Overlap in nanoseconds between [start, end] and that request's segments on that thread. */
    public long overlapNanos(long javaThreadId, long startEpochNanos, long endEpochNanos, int slot) {
        Lane lane = lanes.get(javaThreadId);
        if (lane == null) {
            return 0;
        }
        return lane.overlapNanos(startEpochNanos, endEpochNanos, i -> lane.slots[i] == slot);
    }
}
