package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Wait;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Mutable per-request totals while a recording is read; turned into an immutable {@link Request} at
 * the end. Totals are always exact; the event lists are kept only while {@code detail} is on (the
 * analyzer switches it off past a request count, so memory stays bounded for huge recordings).
 */
final class RequestAcc {

    final long id;
    final int slot;
    final boolean detail;

    boolean ended;
    String name;
    String boundary;
    String url;
    String outcome;
    String error;
    int statusCode = -1;
    ThreadRef startThread;
    long startEpochNanos;
    long durationNanos;

    int hops;
    long allocatedBytes;
    long blockedNanos;
    long queueDelayNanos;
    long wakeLatencyNanos;
    boolean nonBlocking;
    final Map<ThreadRef, long[]> threads = new LinkedHashMap<>(4); // [segments, nanos, bytes]
    final Map<String, PolicyAcc> policies = new LinkedHashMap<>(4);
    // Self time: children end before their parent, but the file's order across threads is not
    // commit order, so a child's time waits here for a parent not yet seen, or is taken off a
    // parent already seen.
    Map<Long, Long> pendingChildNanos;
    Map<Long, String> finishedSpans;

    List<Segment> segments;
    List<Hop> hopList;
    List<Wait> waits;
    List<Span> spans;

    long lockCount;
    long lockNanos;
    Map<String, LockAcc> lockSites;
    Map<String, long[]> allocSites; // frame + '|' + class -> [samples, bytes]
    long gcNanos;
    List<GcPause> gcPauses;

    static final class PolicyAcc {
        final String kind;
        long count;
        long totalNanos;
        long selfNanos;

        PolicyAcc(String kind) {
            this.kind = kind;
        }
    }

    static final class LockAcc {
        final String kind;
        final String className;
        long count;
        long nanos;
        long longestNanos = -1;
        String stack = "";

        LockAcc(String kind, String className) {
            this.kind = kind;
            this.className = className;
        }
    }

    RequestAcc(long id, int slot, boolean detail) {
        this.id = id;
        this.slot = slot;
        this.detail = detail;
        if (detail) {
            segments = new ArrayList<>(4);
            hopList = new ArrayList<>(4);
            waits = new ArrayList<>(2);
            spans = new ArrayList<>(4);
        }
    }

    void addSegment(Segment s) {
        long[] t = threads.computeIfAbsent(s.thread(), k -> new long[3]);
        t[0]++;
        t[1] += s.durationNanos();
        t[2] += Math.max(0, s.allocatedBytes());
        allocatedBytes += Math.max(0, s.allocatedBytes());
        if (detail) {
            segments.add(s);
        }
    }

    void addHop(Hop h) {
        hops++;
        if ("wake".equals(h.kind())) {
            wakeLatencyNanos += Math.max(0, h.delayNanos());
        } else {
            queueDelayNanos += Math.max(0, h.delayNanos());
        }
        if (detail) {
            hopList.add(h);
        }
    }

    void addWait(Wait w) {
        blockedNanos += w.durationNanos();
        nonBlocking |= w.nonBlockingThread();
        if (detail) {
            waits.add(w);
        }
    }

    void addSpan(Span s) {
        String key = s.name() == null ? "?" : s.name();
        PolicyAcc p = policies.computeIfAbsent(key, k -> new PolicyAcc(s.kind()));
        p.count++;
        p.totalNanos += s.durationNanos();
        long children = 0;
        if (pendingChildNanos != null) {
            Long c = pendingChildNanos.remove(s.spanId());
            children = c == null ? 0 : c;
        }
        p.selfNanos += s.durationNanos() - children;
        if (s.parentSpanId() != 0) {
            String parentName = finishedSpans == null ? null : finishedSpans.get(s.parentSpanId());
            if (parentName != null) {
                policies.get(parentName).selfNanos -= s.durationNanos();
            } else {
                if (pendingChildNanos == null) {
                    pendingChildNanos = new HashMap<>(4);
                }
                pendingChildNanos.merge(s.parentSpanId(), s.durationNanos(), Long::sum);
            }
        }
        if (finishedSpans == null) {
            finishedSpans = new HashMap<>(4);
        }
        finishedSpans.put(s.spanId(), key);
        if (detail) {
            spans.add(s);
        }
    }

    /** Adds a contention event clipped to the request ({@code nanos}); the longest one's stack is kept. */
    void addLock(String kind, String className, long nanos, long eventNanos, Supplier<String> stack) {
        lockCount++;
        lockNanos += nanos;
        if (lockSites == null) {
            lockSites = new HashMap<>(4);
        }
        LockAcc site = lockSites.computeIfAbsent(kind + '|' + className, k -> new LockAcc(kind, className));
        site.count++;
        site.nanos += nanos;
        if (eventNanos > site.longestNanos) {
            site.longestNanos = eventNanos;
            site.stack = stack.get();
        }
    }

    void addAllocationSample(String frame, String objectClass, long weightBytes) {
        if (allocSites == null) {
            allocSites = new HashMap<>(8);
        }
        long[] a = allocSites.computeIfAbsent(frame + '|' + objectClass, k -> new long[2]);
        a[0]++;
        a[1] += weightBytes;
    }

    void addGcPause(GcPause p, long overlapNanos) {
        gcNanos += overlapNanos;
        if (detail) {
            if (gcPauses == null) {
                gcPauses = new ArrayList<>(2);
            }
            gcPauses.add(p);
        }
    }

    long endEpochNanos() {
        return startEpochNanos + durationNanos;
    }

    Request toRequest(int topSites) {
        List<ThreadTime> threadTimes = new ArrayList<>(threads.size());
        threads.forEach((t, v) -> threadTimes.add(new ThreadTime(t, (int) v[0], v[1], v[2])));
        if (threadTimes.isEmpty() && startThread != null) {
            threadTimes.add(new ThreadTime(startThread, 0, 0, 0));
        }
        List<PolicyTime> policyTimes = new ArrayList<>(policies.size());
        policies.forEach((n, p) -> policyTimes.add(new PolicyTime(n, p.kind, p.count, p.totalNanos, Math.max(0, p.selfNanos))));
        policyTimes.sort(Comparator.comparingLong(PolicyTime::selfNanos).reversed().thenComparing(PolicyTime::name));
        List<LockSite> locks = new ArrayList<>();
        if (lockSites != null) {
            lockSites.values().forEach(l -> locks.add(new LockSite(l.kind, l.className, l.count, l.nanos, l.stack)));
            locks.sort(Comparator.comparingLong(LockSite::nanos).reversed().thenComparing(LockSite::className));
        }
        List<AllocationSite> sites = new ArrayList<>();
        if (allocSites != null) {
            allocSites.forEach((k, v) -> {
                int bar = k.lastIndexOf('|');
                sites.add(new AllocationSite(k.substring(0, bar), k.substring(bar + 1), v[0], v[1]));
            });
            sites.sort(Comparator.comparingLong(AllocationSite::sampledBytes).reversed().thenComparing(AllocationSite::frame));
        }
        List<Hop> hopsSorted = detail ? new ArrayList<>(hopList) : List.of();
        if (detail) {
            hopsSorted.sort(Comparator.comparingLong(Hop::arrivalEpochNanos));
        }
        return new Request(id, name, boundary, url, outcome, error, statusCode, startThread,
                startEpochNanos, durationNanos, hops, List.copyOf(hopsSorted), List.copyOf(threadTimes),
                detail ? sorted(segments, Comparator.comparingLong(Segment::startEpochNanos)) : List.of(),
                detail ? sorted(waits, Comparator.comparingLong(Wait::startEpochNanos)) : List.of(),
                detail ? sorted(spans, Comparator.comparingLong(Span::startEpochNanos)) : List.of(),
                allocatedBytes, blockedNanos, queueDelayNanos, wakeLatencyNanos, nonBlocking,
                List.copyOf(policyTimes),
                lockCount == 0 ? LockContention.NONE
                        : new LockContention(lockCount, lockNanos, List.copyOf(locks.subList(0, Math.min(topSites, locks.size())))),
                List.copyOf(sites.subList(0, Math.min(topSites, sites.size()))),
                gcNanos, gcPauses == null ? List.of() : List.copyOf(gcPauses), detail);
    }

    private static <T> List<T> sorted(List<T> list, Comparator<T> order) {
        List<T> copy = new ArrayList<>(list);
        copy.sort(order);
        return List.copyOf(copy);
    }
}
