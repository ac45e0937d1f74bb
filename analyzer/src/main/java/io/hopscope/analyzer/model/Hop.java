package io.hopscope.analyzer.model;

/**
 * The request's execution arriving on another thread ({@code hopscope.Hop}). {@code kind} is
 * {@code handoff} (delay = queue delay), {@code wake} (a parked waiter woken; delay = wake latency)
 * or {@code return} (a result another thread completed, picked up without parking; delay =
 * completion to pickup); it left {@code from} at {@code arrivalEpochNanos - delayNanos}.
 */
public record Hop(String kind, ThreadRef from, ThreadRef to, long arrivalEpochNanos, long delayNanos,
                  String via) {

    /** What the delay of this kind of hop is called. */
    public String delayName() {
        return switch (kind) {
            case "wake" -> "wake latency";
            case "return" -> "return delay";
            default -> "queue delay";
        };
    }

    public long departureEpochNanos() {
        return arrivalEpochNanos - Math.max(0, delayNanos);
    }
}
