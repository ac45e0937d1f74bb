package io.hopscope.analyzer.analysis.threads;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The segments of the requests still in flight, per Java thread, sorted by start: the sliding
 * window the single pass joins JDK events against. Segments of finished requests are dropped at each
 * flush point ({@link #prune()}), so its size follows the requests in flight, not the file.
 *
 * @param <T> what owns a segment (the request being read)
 */
public final class SegmentWindow<T> {

    /** One thread's segments with the request each belongs to. */
    private final class Lane extends SegmentLane {
        Object[] owners = new Object[8];

        Lane() {
            super(8);
        }

        void add(long start, long end, T owner) {
            // append may grow owners, so take the index before naming the array.
            int i = append(start, end);
            owners[i] = owner;
        }

        @Override
        protected void resizePayload(int length) {
            owners = Arrays.copyOf(owners, length);
        }

        @Override
        protected void reorderPayload(Integer[] order) {
            Object[] o = new Object[owners.length];
            for (int i = 0; i < n; i++) {
                o[i] = owners[order[i]];
            }
            owners = o;
        }

        @SuppressWarnings("unchecked")
        T owner(int i) {
            return (T) owners[i];
        }

        void prune() {
            int kept = 0;
            for (int i = 0; i < n; i++) {
                if (!finished.test(owner(i))) {
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
    }

    private final Map<Long, Lane> lanes = new HashMap<>();
    private final Predicate<T> finished;

    /** A window whose segments {@link #prune()} drops once their owner is {@code finished}. */
    public SegmentWindow(Predicate<T> finished) {
        this.finished = finished;
    }

    public void add(long javaThreadId, long startEpochNanos, long endEpochNanos, T owner) {
        lanes.computeIfAbsent(javaThreadId, k -> new Lane()).add(startEpochNanos, endEpochNanos, owner);
    }

    /** Sorts the lanes that need it; call before lookups. */
    public void sort() {
        lanes.values().forEach(Lane::sort);
    }

    /** Drops the segments of finished requests, and the lanes of threads with none left. */
    public void prune() {
        lanes.values().removeIf(lane -> {
            lane.prune();
            return lane.n == 0;
        });
    }

    /** The request whose segment on that thread overlaps [start, end] the most (contains it, for a point), or null. */
    public T find(long javaThreadId, long startEpochNanos, long endEpochNanos) {
        Lane lane = lanes.get(javaThreadId);
        if (lane == null) {
            return null;
        }
        int i = lane.mostOverlapping(startEpochNanos, endEpochNanos);
        return i < 0 ? null : lane.owner(i);
    }

    /** Overlap in nanoseconds between [start, end] and that request's segments on that thread. */
    public long overlapNanos(long javaThreadId, long startEpochNanos, long endEpochNanos, T owner) {
        Lane lane = lanes.get(javaThreadId);
        if (lane == null) {
            return 0;
        }
        return lane.overlapNanos(startEpochNanos, endEpochNanos, i -> lane.owners[i] == owner);
    }
}
