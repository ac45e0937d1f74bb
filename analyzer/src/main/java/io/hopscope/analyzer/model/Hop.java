package io.hopscope.analyzer.model;

/**
 * The request's execution arriving on another thread ({@code hopscope.Hop}). {@code kind} is
 * {@code handoff} (delay = queue delay; a scheduled task's from when it was due, its
 * {@code scheduledNanos} apart), {@code wake} (a parked waiter woken; delay = wake latency) or
 * {@code return} (a result another thread completed, picked up without parking; delay = completion
 * to pickup); it left {@code from} at {@code arrivalEpochNanos - delayNanos - scheduledNanos}.
 */
public record Hop(String kind, ThreadRef from, ThreadRef to, long arrivalEpochNanos, long delayNanos,
                  String via, long scheduledNanos) {

    /** A hop that was not scheduled. */
    public Hop(String kind, ThreadRef from, ThreadRef to, long arrivalEpochNanos, long delayNanos, String via) {
        this(kind, from, to, arrivalEpochNanos, delayNanos, via, 0);
    }

    /** What the delay of this kind of hop is called. */
    public String delayName() {
        return switch (kind) {
            case "wake" -> "wake latency";
            case "return" -> "return delay";
            default -> "queue delay";
        };
    }

    public long departureEpochNanos() {
        return arrivalEpochNanos - Math.max(0, delayNanos) - scheduledNanos;
    }
}
