package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.Request;
import java.util.Comparator;

/** What {@code report --sort} orders the worst requests by (largest first; {@code start} earliest first). */
public enum SortField {
    duration(Comparator.comparingLong(Request::durationNanos).reversed()),
    hops(Comparator.comparingInt(Request::hops).reversed()),
    allocated(Comparator.comparingLong(Request::allocatedBytes).reversed()),
    blocked(Comparator.comparingLong(Request::blockedNanos).reversed()),
    lock(Comparator.comparingLong((Request r) -> r.lock().nanos()).reversed()),
    gc(Comparator.comparingLong(Request::gcNanos).reversed()),
    start(Comparator.comparingLong(Request::startEpochNanos));

    private final Comparator<Request> order;

    SortField(Comparator<Request> order) {
        this.order = order.thenComparingLong(Request::id);
    }

    public Comparator<Request> order() {
        return order;
    }
}
