package io.hopscope.analyzer.analysis.threads;

import io.hopscope.analyzer.analysis.memory.LongMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
        final long javaThreadId;
        Object[] owners = new Object[8];

        Lane(long javaThreadId) {
            super(8);
            this.javaThreadId = javaThreadId;
        }

        // The owner compared in the loop: a lambda made per call was garbage for every JDK event joined.
        long overlapNanos(long startEpochNanos, long endEpochNanos, T owner) {
            long sum = 0;
            int i = lastStartAtOrBefore(endEpochNanos);
            for (int steps = 0; i >= 0 && steps < 64 && ends[i] >= startEpochNanos; i--, steps++) {
                if (owners[i] == owner) {
                    sum += Math.max(0, Math.min(endEpochNanos, ends[i]) - Math.max(startEpochNanos, starts[i]));
                }
            }
            return sum;
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
        protected void reorderPayload(int[] order, int from) {
            permute(owners, order, from);
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

    // Looked up by thread id for every segment and JDK event (a map keyed by a long, so no Long is boxed
    // per lookup), walked in a list at each sort and prune.
    private final LongMap<Lane> lanes = new LongMap<>();
    private final List<Lane> laneList = new ArrayList<>();
    private final Predicate<T> finished;

    /** A window whose segments {@link #prune()} drops once their owner is {@code finished}. */
    public SegmentWindow(Predicate<T> finished) {
        this.finished = finished;
    }

    public void add(long javaThreadId, long startEpochNanos, long endEpochNanos, T owner) {
        Lane lane = lanes.get(javaThreadId);
        if (lane == null) {
            lane = new Lane(javaThreadId);
            lanes.put(javaThreadId, lane);
            laneList.add(lane);
        }
        lane.add(startEpochNanos, endEpochNanos, owner);
    }

    /** Sorts the lanes that need it; call before lookups. */
    public void sort() {
        for (Lane lane : laneList) {
            lane.sort();
        }
    }

    /** Drops the segments of finished requests, and the lanes of threads with none left. */
    public void prune() {
        int kept = 0;
        for (int i = 0; i < laneList.size(); i++) {
            Lane lane = laneList.get(i);
            lane.prune();
            if (lane.n == 0) {
                lanes.remove(lane.javaThreadId);
            } else {
                laneList.set(kept++, lane);
            }
        }
        laneList.subList(kept, laneList.size()).clear();
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
        return lane.overlapNanos(startEpochNanos, endEpochNanos, owner);
    }
}
