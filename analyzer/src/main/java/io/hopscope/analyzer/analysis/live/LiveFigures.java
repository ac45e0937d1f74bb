package io.hopscope.analyzer.analysis.live;

import io.hopscope.analyzer.model.LiveInterval;
import io.hopscope.analyzer.model.RequestKinds;
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
 * The figures of {@code hopscope live}, by event time: fed one event at a time by the stream's
 * thread, each into the interval its timestamp falls in (intervals aligned on the epoch: whole
 * seconds for 1 s), and handed out by {@link #passed} once the stream has passed an interval's end.
 * The stream gives the events of each flush in commit order, and every event committed before a
 * flush point in that flush or an earlier one, so once an event (or the periodic clock tick) later
 * than an interval's end has been read, nothing more of it can come: a quiet interval is a quiet
 * application, not the stream's timing. An event older than an interval already handed out (not
 * seen in practice) goes to the oldest one not handed out yet.
 *
 * <p>A request is in flight from its hopscope.RequestStart to its hopscope.Request; its hops,
 * segments and monitor enters add up while it runs and count, per request, in the interval where it
 * finishes. Requests that began before the stream did are counted apart when they finish
 * ({@code finishedBegunBefore}), and not in the per-request figures: the stream missed part of them.
 * A server's hand-over of a request to its request thread counts in the request's server queue, in
 * none of its hops or queue delay; the server queue's mean and maximum are over the server requests
 * (a server received it, or handed it over) that finished in the interval.
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
        int serverQueueHops;
        long serverQueueNanos;
    }

    /** One name's figures in one interval. */
    private static final class NameAcc {
        long started;
        long finished;
        /** Requests that finished here but began before the stream: not in {@code finished}. */
        long finishedBegunBefore;
        /** Finished requests whose start the stream saw: the per-request figures are over these. */
        long measured;
        long latencySumNanos;
        final Histogram latency = new Histogram(3);
        final Map<String, Long> hopsByKind = new TreeMap<>();
        long queueDelayNanos;
        long wakeLatencyNanos;
        long allocatedBytes;
        long lockNanos;
        /** Measured requests a server received: the server queue's figures are over these. */
        long serverRequests;
        long serverQueueNanos;
        long serverQueueMaxNanos;
    }

    /** One interval's names, GC pauses and thread count. */
    private static final class Interval {
        final Map<String, NameAcc> names = new LinkedHashMap<>();
        long gcPauseNanos;
        int liveThreads = -1;
    }

    private final long intervalNanos;
    private final Map<Long, Open> open = new HashMap<>();
    // In flight at the end of the last interval handed out, per name (requests whose start was seen).
    private final Map<String, Long> inFlightByName = new HashMap<>();
    // Intervals not handed out yet, by index (epoch nanos / intervalNanos).
    private final TreeMap<Long, Interval> intervals = new TreeMap<>();
    // The first interval not handed out yet; unknown until the first event.
    private long nextIndex = Long.MIN_VALUE;
    // The last thread count handed out: an interval without a count of its own shows it again.
    private int liveThreads;
    private final Map<Long, ArrayDeque<long[]>> segmentsByThread = new HashMap<>();
    private final Map<Long, ArrayDeque<long[]>> locksByThread = new HashMap<>();
    /** The newest event time seen (epoch nanos): the stream's position, and what the keep windows are measured against. */
    private long newestNanos;

    /** Intervals of one second. */
    public LiveFigures() {
        this(1_000_000_000L);
    }

    public LiveFigures(long intervalNanos) {
        this.intervalNanos = intervalNanos;
    }

    /** An event that only says how far the stream has come (a periodic clock tick). */
    public synchronized void tick(long epochNanos) {
        seen(epochNanos);
    }

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
        acc(epochNanos, name).started++;
    }

    /** hopscope.Request of a request of no known kind: the request ended, after {@code durationNanos}. */
    public void finished(long requestId, String name, long durationNanos, long endEpochNanos) {
        finished(requestId, name, null, durationNanos, endEpochNanos);
    }

    /** hopscope.Request: the request, of {@code kind} (null: not recorded), ended after {@code durationNanos}. */
    public synchronized void finished(long requestId, String name, String kind, long durationNanos, long endEpochNanos) {
        seen(endEpochNanos);
        Open o = open.remove(requestId);
        if (o == null || !o.started) {
            // Began before the stream did: it ends, but its hops and segments were partly missed,
            // and its duration too when JFR started with the stream (its begin() was not yet timed).
            acc(endEpochNanos, name).finishedBegunBefore++;
            return;
        }
        // Keyed by the start's name: the agent fixes a request's name when it begins.
        NameAcc a = acc(endEpochNanos, o.name);
        a.finished++;
        a.measured++;
        long nanos = Math.max(0, durationNanos);
        a.latencySumNanos += nanos;
        a.latency.recordValue(Math.max(1, nanos));
        o.hopsByKind.forEach((hopKind, n) -> a.hopsByKind.merge(hopKind, n, Long::sum));
        a.queueDelayNanos += o.queueDelayNanos;
        a.wakeLatencyNanos += o.wakeLatencyNanos;
        a.allocatedBytes += o.allocatedBytes;
        a.lockNanos += o.lockNanos;
        if (RequestKinds.SERVER.equals(kind) || o.serverQueueHops > 0) {
            a.serverRequests++;
            a.serverQueueNanos += o.serverQueueNanos;
            a.serverQueueMaxNanos = Math.max(a.serverQueueMaxNanos, o.serverQueueNanos);
        }
    }

    /** hopscope.Hop that is no server's hand-over. */
    public void hop(long requestId, String kind, long delayNanos, long epochNanos) {
        hop(requestId, kind, delayNanos, false, epochNanos);
    }

    /**
     * hopscope.Hop: a server's hand-over ({@code serverQueue}) adds to the request's server queue only;
     * otherwise wake hops add to the wake latency, return hops to neither, the others (handoffs) to the
     * queue delay.
     */
    public synchronized void hop(long requestId, String kind, long delayNanos, boolean serverQueue, long epochNanos) {
        seen(epochNanos);
        Open o = touch(requestId, epochNanos);
        long delay = Math.max(0, delayNanos);
        if (serverQueue) {
            o.serverQueueHops++;
            o.serverQueueNanos += delay;
            return;
        }
        o.hopsByKind.merge(kind, 1L, Long::sum);
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

    /**
     * The process's live threads, counted at {@code epochNanos} (the same machine's clock): the
     * interval's count is the last one in it. Not a stream event, so it does not move the stream's
     * position; a count older than what was printed goes to the oldest interval not printed.
     */
    public synchronized void threads(int liveThreads, long epochNanos) {
        if (nextIndex == Long.MIN_VALUE) {
            this.liveThreads = liveThreads;
            return;
        }
        long index = Math.max(nextIndex, Math.floorDiv(epochNanos, intervalNanos));
        intervals.computeIfAbsent(index, k -> new Interval()).liveThreads = liveThreads;
    }

    /** jdk.GarbageCollection's sum of pauses, in the interval of its end. */
    public synchronized void gcPause(long nanos, long endEpochNanos) {
        seen(endEpochNanos);
        interval(endEpochNanos).gcPauseNanos += Math.max(0, nanos);
    }

    /**
     * The intervals the stream has passed (wholly before the newest event time read), oldest first,
     * each once, quiet ones included.
     */
    public synchronized List<LiveInterval> passed() {
        List<LiveInterval> passed = new ArrayList<>();
        if (nextIndex == Long.MIN_VALUE) {
            return passed;
        }
        long current = Math.floorDiv(newestNanos, intervalNanos);
        for (; nextIndex < current; nextIndex++) {
            Interval i = intervals.remove(nextIndex);
            passed.add(figures(nextIndex, i != null ? i : new Interval()));
        }
        expire();
        return passed;
    }

    private LiveInterval figures(long index, Interval interval) {
        if (interval.liveThreads >= 0) {
            liveThreads = interval.liveThreads;
        }
        for (String name : inFlightByName.keySet()) {
            interval.names.computeIfAbsent(name, k -> new NameAcc());
        }
        List<LiveInterval.Name> names = new ArrayList<>();
        long inFlight = 0;
        for (Map.Entry<String, NameAcc> e : interval.names.entrySet()) {
            NameAcc a = e.getValue();
            long n = a.measured;
            // Requests whose start the stream saw, started and not finished by this interval's end.
            long flying = inFlightByName.getOrDefault(e.getKey(), 0L) + a.started - a.measured;
            if (flying > 0) {
                inFlightByName.put(e.getKey(), flying);
            } else {
                inFlightByName.remove(e.getKey());
            }
            inFlight += Math.max(0, flying);
            Map<String, Double> byKind = new LinkedHashMap<>();
            long hops = 0;
            for (Map.Entry<String, Long> k : a.hopsByKind.entrySet()) {
                hops += k.getValue();
                byKind.put(k.getKey(), (double) k.getValue() / n); // only measured requests add hops
            }
            names.add(new LiveInterval.Name(e.getKey(), a.started, a.finished, Math.max(0, flying),
                    n == 0 ? null : a.latencySumNanos / n,
                    n == 0 ? null : a.latency.getValueAtPercentile(99),
                    n == 0 ? null : (double) hops / n, byKind,
                    n == 0 ? null : a.queueDelayNanos / n,
                    n == 0 ? null : a.wakeLatencyNanos / n,
                    n == 0 ? null : a.allocatedBytes / n,
                    n == 0 ? null : a.lockNanos / n, n, a.finishedBegunBefore,
                    a.serverRequests == 0 ? null : a.serverQueueNanos / a.serverRequests,
                    a.serverRequests == 0 ? null : a.serverQueueMaxNanos));
        }
        names.sort(Comparator.comparingLong(LiveInterval.Name::inFlight).reversed()
                .thenComparing(Comparator.comparingLong(LiveInterval.Name::started).reversed())
                .thenComparing(LiveInterval.Name::name));
        return new LiveInterval(index * intervalNanos / 1_000_000, liveThreads, inFlight, interval.gcPauseNanos,
                List.copyOf(names));
    }

    // The interval an event of this time counts in: its own, or the oldest not handed out yet.
    private Interval interval(long epochNanos) {
        seen(epochNanos);
        long index = Math.floorDiv(epochNanos, intervalNanos);
        return intervals.computeIfAbsent(Math.max(index, nextIndex), k -> new Interval());
    }

    private NameAcc acc(long epochNanos, String name) {
        return interval(epochNanos).names.computeIfAbsent(name, k -> new NameAcc());
    }

    private Open touch(long requestId, long epochNanos) {
        Open o = open.computeIfAbsent(requestId, k -> new Open());
        o.lastSeenNanos = Math.max(o.lastSeenNanos, epochNanos);
        return o;
    }

    private void seen(long epochNanos) {
        newestNanos = Math.max(newestNanos, epochNanos);
        if (nextIndex == Long.MIN_VALUE) {
            nextIndex = Math.floorDiv(epochNanos, intervalNanos); // the first interval: from the first event read
        }
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
