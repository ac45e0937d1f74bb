package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.LockSite;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Where one request's lock contention and sampled allocation happened, while it is read; the top ones at the end. */
final class Sites {

    private static final class LockTotals {
        final String kind;
        final String className;
        long count;
        long nanos;
        long longestNanos = -1;
        String stack = "";

        LockTotals(String kind, String className) {
            this.kind = kind;
            this.className = className;
        }
    }

    private Map<String, LockTotals> lockSites;
    private Map<String, long[]> allocSites; // frame + '|' + class -> [samples, bytes]

    /** Adds a contention event clipped to the request ({@code nanos}); the longest one's stack is kept. */
    void addLock(String kind, String className, long nanos, long eventNanos, Supplier<String> stack) {
        if (lockSites == null) {
            lockSites = new HashMap<>(4);
        }
        LockTotals site = lockSites.computeIfAbsent(kind + '|' + className, k -> new LockTotals(kind, className));
        site.count++;
        site.nanos += nanos;
        if (eventNanos > site.longestNanos) {
            site.longestNanos = eventNanos;
            site.stack = stack.get();
        }
    }

    void addAllocation(String frame, String objectClass, long weightBytes) {
        if (allocSites == null) {
            allocSites = new HashMap<>(8);
        }
        long[] a = allocSites.computeIfAbsent(frame + '|' + objectClass, k -> new long[2]);
        a[0]++;
        a[1] += weightBytes;
    }

    /** The {@code top} lock sites by contended time. */
    List<LockSite> locks(int top) {
        List<LockSite> locks = new ArrayList<>();
        if (lockSites != null) {
            lockSites.values().forEach(l -> locks.add(new LockSite(l.kind, l.className, l.count, l.nanos, l.stack)));
            locks.sort(Comparator.comparingLong(LockSite::nanos).reversed().thenComparing(LockSite::className));
        }
        return List.copyOf(locks.subList(0, Math.min(top, locks.size())));
    }

    /** The {@code top} allocation sites by sampled bytes. */
    List<AllocationSite> allocations(int top) {
        List<AllocationSite> sites = new ArrayList<>();
        if (allocSites != null) {
            allocSites.forEach((k, v) -> {
                int bar = k.lastIndexOf('|');
                sites.add(new AllocationSite(k.substring(0, bar), k.substring(bar + 1), v[0], v[1]));
            });
            sites.sort(Comparator.comparingLong(AllocationSite::sampledBytes).reversed().thenComparing(AllocationSite::frame));
        }
        return List.copyOf(sites.subList(0, Math.min(top, sites.size())));
    }
}
