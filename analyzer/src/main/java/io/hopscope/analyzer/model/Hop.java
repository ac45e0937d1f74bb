package io.hopscope.analyzer.model;

/**
 * The request's execution arriving on another thread ({@code hopscope.Hop}). {@code kind} is
 * {@code handoff} (delay = queue delay) or {@code wake} (delay = wake latency); it left
 * {@code from} at {@code arrivalEpochNanos - delayNanos}.
 */
public record Hop(String kind, ThreadRef from, ThreadRef to, long arrivalEpochNanos, long delayNanos,
                  String via) {

    public long departureEpochNanos() {
        return arrivalEpochNanos - Math.max(0, delayNanos);
    }
}
