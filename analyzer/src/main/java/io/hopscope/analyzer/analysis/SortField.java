package io.hopscope.analyzer.analysis;

import java.util.Comparator;

/**
 * What {@code report --sort} orders the worst requests by (largest first; {@code start} earliest first).
 * The order is defined once, as a key ascending then the request id: the selection compares requests
 * by it and the spill's external sort stores it ({@code ~v} reverses a long without overflow).
 */
public enum SortField {
    duration {
        @Override
        long key(RequestAcc r) {
            return ~r.durationNanos;
        }
    },
    hops {
        @Override
        long key(RequestAcc r) {
            return ~(long) r.hops;
        }
    },
    allocated {
        @Override
        long key(RequestAcc r) {
            return ~r.allocatedBytes;
        }
    },
    blocked {
        @Override
        long key(RequestAcc r) {
            return ~r.blockedNanos;
        }
    },
    lock {
        @Override
        long key(RequestAcc r) {
            return ~r.lockNanos;
        }
    },
    gc {
        @Override
        long key(RequestAcc r) {
            return ~r.gcNanos;
        }
    },
    start {
        @Override
        long key(RequestAcc r) {
            return r.startEpochNanos;
        }
    };

    private final Comparator<RequestAcc> order = Comparator.comparingLong(this::key).thenComparingLong(r -> r.id);

    /** A key whose ascending order, then the id's, is the report's order. */
    abstract long key(RequestAcc r);

    /** The report's order, on the totals, without building records. */
    Comparator<RequestAcc> order() {
        return order;
    }

    /** Whether a request's key is final at its end (not changed by events committed later). */
    boolean finalAtEnd() {
        return this == duration || this == start;
    }
}
