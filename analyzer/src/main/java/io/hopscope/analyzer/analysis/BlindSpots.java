package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.UnexplainedSite;
import io.hopscope.analyzer.read.JfrEvents;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.hopscope.analyzer.read.JfrStack;

/**
 * One request's blind spots while it is read: the JDK's park and monitor events that fell in its
 * segments, and what may explain them, its waits and wake hops per thread; settled into
 * {@link Unexplained} sites when the request is finished (by then every wait and hop of the thread
 * that parked has been read). Made only for a request with a wait, a wake hop or such an event.
 *
 * <p>The agent ends a segment where a wait it knows begins, so the park inside a known wait falls
 * outside the segments and never gets here; what does is a park the agent does not follow. The waits
 * and wakes are checked all the same: a wait whose segment was not split (a future agent's generic
 * park) or a wake hop that ends a park inside a segment explains it.
 */
final class BlindSpots {

    static final int PARK = 0;
    static final int MONITOR_WAIT = 1;
    static final int MONITOR_ENTER = 2;
    private static final String[] KINDS = {"park", "monitorWait", "monitorEnter"};

    // Events waiting for the request's end: settled early when this many wait, against what explains
    // them so far, so a request parking in a loop holds no more (the JDK's threshold, 10 ms in
    // hopscope.jfc, keeps them few: one per 10 ms of a thread's time).
    private static final int MAX_PENDING = 256;
    // Distinct sites a request keeps; time at others is counted in its total, not shown as a site.
    private static final int MAX_SITES = 16;

    /** A park or monitor event inside the request's segments on one thread, {@code overlapNanos} of it in them. */
    private record Parked(int kind, long javaThreadId, long startNanos, long endNanos, long overlapNanos,
                          String blocker, JfrStack stack, ThreadRef waker) {
    }

    private static final class SiteAcc {
        final String kind;
        final String frame;
        final String blocker;
        long count;
        long nanos;
        long longestNanos = -1;
        ThreadRef waker;
        JfrStack stack;

        SiteAcc(String kind, String frame, String blocker) {
            this.kind = kind;
            this.frame = frame;
            this.blocker = blocker;
        }
    }

    // Triples (javaThreadId, from, to): a wait's start and end; a wake hop's departure and arrival.
    private long[] waits;
    private int waitCount;
    private long[] wakes;
    private int wakeCount;
    private List<Parked> pending;
    private Map<String, SiteAcc> sites;
    long nanos;
    long count;

    void addWait(long javaThreadId, long startNanos, long endNanos) {
        if (waits == null || waitCount * 3 == waits.length) {
            waits = waits == null ? new long[6] : Arrays.copyOf(waits, waits.length * 2);
        }
        put(waits, waitCount++, javaThreadId, startNanos, endNanos);
    }

    void addWake(long javaThreadId, long departureNanos, long arrivalNanos) {
        if (wakes == null || wakeCount * 3 == wakes.length) {
            wakes = wakes == null ? new long[6] : Arrays.copyOf(wakes, wakes.length * 2);
        }
        put(wakes, wakeCount++, javaThreadId, departureNanos, arrivalNanos);
    }

    private static void put(long[] a, int i, long thread, long from, long to) {
        a[3 * i] = thread;
        a[3 * i + 1] = from;
        a[3 * i + 2] = to;
    }

    /** A park or monitor event of {@code kind} on that thread, {@code overlapNanos} of it inside the request's segments. */
    void addParked(int kind, long javaThreadId, long startNanos, long endNanos, long overlapNanos, String blocker,
                   JfrStack stack, ThreadRef waker) {
        if (pending == null) {
            pending = new ArrayList<>(2);
        }
        pending.add(new Parked(kind, javaThreadId, startNanos, endNanos, overlapNanos, blocker, stack, waker));
        if (pending.size() == MAX_PENDING) {
            settle();
        }
    }

    /** Settles what waits into sites; at the request's end, also forgets what explained it. */
    void finish() {
        settle();
        waits = null;
        wakes = null;
        pending = null;
    }

    private void settle() {
        if (pending == null) {
            return;
        }
        for (Parked p : pending) {
            long unexplained = p.overlapNanos() - explainedNanos(p);
            if (unexplained > 0) {
                site(p, unexplained);
            }
        }
        pending.clear();
    }

    /**
     * The part of the event its request's waits and wake hops on the same thread explain: a wait, where
     * it overlaps the event; a wake hop that left while the thread was parked, the event up to its arrival.
     */
    private long explainedNanos(Parked p) {
        long[] covers = new long[2 * (waitCount + wakeCount)];
        int n = 0;
        for (int i = 0; i < waitCount; i++) {
            if (waits[3 * i] == p.javaThreadId() && waits[3 * i + 1] < p.endNanos() && waits[3 * i + 2] > p.startNanos()) {
                covers[2 * n] = Math.max(p.startNanos(), waits[3 * i + 1]);
                covers[2 * n++ + 1] = Math.min(p.endNanos(), waits[3 * i + 2]);
            }
        }
        for (int i = 0; i < wakeCount; i++) {
            if (wakes[3 * i] == p.javaThreadId() && wakes[3 * i + 1] <= p.endNanos() && wakes[3 * i + 2] >= p.startNanos()) {
                covers[2 * n] = p.startNanos();
                covers[2 * n++ + 1] = Math.min(p.endNanos(), wakes[3 * i + 2]);
            }
        }
        if (n == 0) {
            return 0;
        }
        // The length of the union of the covers (few: sorting pairs by start through an index is enough).
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        long[] c = covers;
        Arrays.sort(order, Comparator.comparingLong(i -> c[2 * i]));
        long covered = 0;
        long reach = Long.MIN_VALUE;
        for (int i : order) {
            long from = Math.max(c[2 * i], reach);
            if (c[2 * i + 1] > from) {
                covered += c[2 * i + 1] - from;
            }
            reach = Math.max(reach, c[2 * i + 1]);
        }
        return Math.min(p.overlapNanos(), covered);
    }

    private void site(Parked p, long unexplainedNanos) {
        nanos += unexplainedNanos;
        count++;
        String kind = KINDS[p.kind()];
        String frame = JfrEvents.firstApplicationFrame(p.stack());
        String key = kind + '|' + frame + '|' + p.blocker();
        if (sites == null) {
            sites = new HashMap<>(4);
        }
        SiteAcc s = sites.get(key);
        if (s == null) {
            if (sites.size() == MAX_SITES) {
                return;
            }
            s = new SiteAcc(kind, frame, p.blocker());
            sites.put(key, s);
        }
        s.count++;
        s.nanos += unexplainedNanos;
        long eventNanos = p.endNanos() - p.startNanos();
        if (eventNanos > s.longestNanos) {
            s.longestNanos = eventNanos;
            s.waker = p.waker();
            s.stack = p.stack();
        }
    }

    /** The settled figures with the {@code top} sites that took most time (call after {@link #finish()}). */
    Unexplained toUnexplained(int top) {
        if (count == 0) {
            return Unexplained.NONE;
        }
        List<UnexplainedSite> list = new ArrayList<>();
        if (sites != null) {
            sites.values().forEach(s -> list.add(new UnexplainedSite(s.kind, s.frame, s.blocker, s.count, s.nanos,
                    s.waker, JfrEvents.stack(s.stack, 6))));
        }
        list.sort(Comparator.comparingLong(UnexplainedSite::nanos).reversed().thenComparing(UnexplainedSite::frame));
        return new Unexplained(nanos, count, List.copyOf(list.subList(0, Math.min(top, list.size()))));
    }
}
