package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.LiveInterval;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The figures of {@code hopscope live}: fed one event at a time by the stream's thread, taken once
 * an interval by the printer's. A request is in flight from its hopscope.RequestStart to its
 * hopscope.Request; its hops, segments and monitor enters add up while it runs and count, per
 * request, in the interval where it finishes. Requests that began before the stream are counted
 * when they finish, but not in the per-request figures: the stream missed part of them.
 *
 * <p>Memory: one small entry per request in flight, and the last {@link #KEEP_NANOS} of segments and
 * monitor enters per thread (to join a monitor enter to the request on its thread, whichever of the
 * two arrives first). A request that never ends stays in flight, as it does in the application.
 */
public final class LiveFigures {

    /** How long segments and monitor enters are kept to be joined, and events of unstarted requests are kept. */
    static final long KEEP_NANOS = 30_000_000_000L;

    /** A request seen in the stream and not finished: its start, or at least one of its events. */
    private static final class Open {
        String name;
        boolean started;
        long lastSeenNanos;
        final Map<String, Long> hopsByKind = new TreeMap<>();
        long queueDelayNanos;
        long wakeLatencyNanos;
        long allocatedBytes;
        long lockNanos;
    }

    /** One name's figures in the current interval. */
    private static final class NameAcc {
        long started;
        long finished;
        /** Finished requests whose start the stream saw: the per-request figures are over these. */
        long measured;
        long latencySumNanos;
        final Histogram latency = new Histogram(3);
        final Map<String, Long> hopsByKind = new TreeMap<>();
        long queueDelayNanos;
        long wakeLatencyNanos;
        long allocatedBytes;
        long lockNanos;
    }

    private final Map<Long, Open> open = new HashMap<>();
    private final Map<String, Long> inFlightByName = new HashMap<>();
    private final Map<String, NameAcc> interval = new LinkedHashMap<>();
    private final Map<Long, ArrayDeque<long[]>> segmentsByThread = new HashMap<>();
    private final Map<Long, ArrayDeque<long[]>> locksByThread = new HashMap<>();
    private long gcPauseNanos;
    /** The newest event time seen (epoch nanos): what the keep windows are measured against. */
    private long newestNanos;

    /** hopscope.RequestStart. */
    public synchronized void started(long requestId, String name, long epochNanos) {
        seen(epochNanos);
        Open o = open.computeIfAbsent(requestId, k -> new Open());
        if (o.started) {
            return;
        }
        o.started = true;
        o.name = name;
        o.lastSeenNanos = epochNanos;
        inFlightByName.merge(name, 1L, Long::sum);
        acc(name).started++;
    }

    /** hopscope.Request: the request ended, after {@code durationNanos}. */
    public synchronized void finished(long requestId, String name, long durationNanos, long endEpochNanos) {
        seen(endEpochNanos);
        Open o = open.remove(requestId);
        if (o == null || !o.started) {
            // Began before the stream did: it ends, but its hops and segments were partly missed,
            // and its duration too when JFR started with the stream (its begin() was not yet timed).
            acc(name).finished++;
            return;
        }
        // Keyed by the start's name: the agent fixes a request's name when it begins.
        inFlightByName.computeIfPresent(o.name, (k, v) -> v == 1 ? null : v - 1);
        NameAcc a = acc(o.name);
        a.finished++;
        a.measured++;
        long nanos = Math.max(0, durationNanos);
        a.latencySumNanos += nanos;
        a.latency.recordValue(Math.max(1, nanos));
        o.hopsByKind.forEach((kind, n) -> a.hopsByKind.merge(kind, n, Long::sum));
        a.queueDelayNanos += o.queueDelayNanos;
        a.wakeLatencyNanos += o.wakeLatencyNanos;
        a.allocatedBytes += o.allocatedBytes;
        a.lockNanos += o.lockNanos;
    }

    /** hopscope.Hop: wake hops add to the wake latency, return hops to neither, the others (handoffs) to the queue delay. */
    public synchronized void hop(long requestId, String kind, long delayNanos, long epochNanos) {
        seen(epochNanos);
        Open o = touch(requestId, epochNanos);
        o.hopsByKind.merge(kind, 1L, Long::sum);
        long delay = Math.max(0, delayNanos);
        if ("wake".equals(kind)) {
            o.wakeLatencyNanos += delay;
        } else if (!"return".equals(kind)) {
            o.queueDelayNanos += delay;
        }
    }

    /**
     * hopscope.Mounts: a virtual thread's allocation in the request, measured on its carriers (its
     * segments say -1). Counted while the request is open: a worker's, written when it ends, may
     * come after its request's end, and is then not counted.
     */
    public synchronized void mounts(long requestId, long allocatedBytes) {
        Open o = open.get(requestId);
        if (o != null && allocatedBytes > 0) {
            o.allocatedBytes += allocatedBytes;
        }
    }

    /** hopscope.Segment on thread {@code threadId}; allocatedBytes -1 when the thread has no counter. */
    public synchronized void segment(long requestId, long threadId, long startEpochNanos, long endEpochNanos,
            long allocatedBytes) {
        seen(endEpochNanos);
        Open o = touch(requestId, endEpochNanos);
        if (allocatedBytes > 0) {
            o.allocatedBytes += allocatedBytes;
        }
        ArrayDeque<long[]> locks = locksByThread.get(threadId);
        if (locks != null) {
            for (long[] lock : locks) {
                o.lockNanos += overlap(lock[0], lock[1], startEpochNanos, endEpochNanos);
            }
        }
        segmentsByThread.computeIfAbsent(threadId, k -> new ArrayDeque<>())
                .addLast(new long[] {startEpochNanos, endEpochNanos, requestId});
    }

    /** jdk.JavaMonitorEnter on thread {@code threadId}: counts for the requests whose segments it overlaps. */
    public synchronized void monitorEnter(long threadId, long startEpochNanos, long endEpochNanos) {
        seen(endEpochNanos);
        ArrayDeque<long[]> segments = segmentsByThread.get(threadId);
        if (segments != null) {
            for (long[] s : segments) {
                long nanos = overlap(startEpochNanos, endEpochNanos, s[0], s[1]);
                Open o = nanos > 0 ? open.get(s[2]) : null;
                if (o != null) {
                    o.lockNanos += nanos;
                }
            }
        }
        locksByThread.computeIfAbsent(threadId, k -> new ArrayDeque<>())
                .addLast(new long[] {startEpochNanos, endEpochNanos});
    }

    /** jdk.GarbageCollection's sum of pauses. */
    public synchronized void gcPause(long nanos) {
        gcPauseNanos += Math.max(0, nanos);
    }

    /** The interval's figures; starts the next interval. */
    public synchronized LiveInterval take(long epochMillis, int liveThreads) {
        for (String name : inFlightByName.keySet()) {
            acc(name);
        }
        List<LiveInterval.Name> names = new ArrayList<>();
        long inFlight = 0;
        for (Map.Entry<String, NameAcc> e : interval.entrySet()) {
            NameAcc a = e.getValue();
            long n = a.measured;
            long flying = inFlightByName.getOrDefault(e.getKey(), 0L);
            inFlight += flying;
            Map<String, Double> byKind = new LinkedHashMap<>();
            long hops = 0;
            for (Map.Entry<String, Long> k : a.hopsByKind.entrySet()) {
                hops += k.getValue();
                byKind.put(k.getKey(), (double) k.getValue() / n); // only measured requests add hops
            }
            names.add(new LiveInterval.Name(e.getKey(), a.started, a.finished, flying,
                    n == 0 ? null : a.latencySumNanos / n,
                    n == 0 ? null : a.latency.getValueAtPercentile(99),
                    n == 0 ? null : (double) hops / n, byKind,
                    n == 0 ? null : a.queueDelayNanos / n,
                    n == 0 ? null : a.wakeLatencyNanos / n,
                    n == 0 ? null : a.allocatedBytes / n,
                    n == 0 ? null : a.lockNanos / n, n));
        }
        names.sort(Comparator.comparingLong(LiveInterval.Name::inFlight).reversed()
                .thenComparing(Comparator.comparingLong(LiveInterval.Name::started).reversed())
                .thenComparing(LiveInterval.Name::name));
        LiveInterval result = new LiveInterval(epochMillis, liveThreads, inFlight, gcPauseNanos, List.copyOf(names));
        interval.clear();
        gcPauseNanos = 0;
        expire();
        return result;
    }

    private NameAcc acc(String name) {
        return interval.computeIfAbsent(name, k -> new NameAcc());
    }

    private Open touch(long requestId, long epochNanos) {
        Open o = open.computeIfAbsent(requestId, k -> new Open());
        o.lastSeenNanos = Math.max(o.lastSeenNanos, epochNanos);
        return o;
    }

    private void seen(long epochNanos) {
        newestNanos = Math.max(newestNanos, epochNanos);
    }

    /**
     * Drops joins older than the keep window, and the events of requests never seen to start (they
     * began before the stream did, or an event came after its request ended) and quiet since.
     */
    private void expire() {
        long oldest = newestNanos - KEEP_NANOS;
        expire(segmentsByThread, oldest);
        expire(locksByThread, oldest);
        open.values().removeIf(o -> !o.started && o.lastSeenNanos < oldest);
    }

    private static void expire(Map<Long, ArrayDeque<long[]>> byThread, long oldest) {
        for (Iterator<ArrayDeque<long[]>> it = byThread.values().iterator(); it.hasNext(); ) {
            ArrayDeque<long[]> q = it.next();
            while (!q.isEmpty() && q.peekFirst()[1] < oldest) {
                q.removeFirst();
            }
            if (q.isEmpty()) {
                it.remove();
            }
        }
    }

    private static long overlap(long aStart, long aEnd, long bStart, long bEnd) {
        return Math.max(0, Math.min(aEnd, bEnd) - Math.max(aStart, bStart));
    }
}
