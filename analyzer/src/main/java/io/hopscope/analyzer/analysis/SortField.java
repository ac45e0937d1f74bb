package io.hopscope.analyzer.analysis;

import java.util.Comparator;
import java.util.function.ToLongFunction;

/**
 * What {@code report --sort} orders the worst requests by (largest first; {@code start} earliest first).
 * The order is defined once, as a key ascending then the request id: the selection compares requests
 * by it and the spill's external sort stores it ({@code ~v} reverses a long without overflow).
 */
public enum SortField {
    duration(r -> ~r.durationNanos),
    hops(r -> ~(long) r.hopCount),
    allocated(r -> ~r.allocatedBytes),
    blocked(r -> ~r.blockedNanos),
    lock(r -> ~r.lockNanos),
    gc(r -> ~r.gcNanos),
    start(r -> r.startEpochNanos);

    private final ToLongFunction<RequestInProgress> key;
    private final Comparator<RequestInProgress> order;

    SortField(ToLongFunction<RequestInProgress> key) {
        this.key = key;
        this.order = Comparator.comparingLong(key).thenComparingLong(r -> r.id);
    }

    /** A key whose ascending order, then the id's, is the report's order. */
    long key(RequestInProgress r) {
        return key.applyAsLong(r);
    }

    /** The report's order, on the totals, without building records. */
    Comparator<RequestInProgress> order() {
        return order;
    }

    /** Whether a request's key is final at its end (not changed by events committed later). */
    boolean finalAtEnd() {
        return this == duration || this == start;
    }
}
