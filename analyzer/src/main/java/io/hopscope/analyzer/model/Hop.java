package io.hopscope.analyzer.model;

/**
 * The request's execution arriving on another thread ({@code hopscope.Hop}). {@code kind} is
 * {@code handoff} (delay = queue delay; a scheduled task's from when it was due, its
 * {@code scheduledNanos} apart), {@code wake} (a parked waiter woken; delay = wake latency) or
 * {@code return} (a result another thread completed, picked up without parking; delay = completion
 * to pickup); it left {@code from} at {@code arrivalEpochNanos - delayNanos - scheduledNanos}.
 * {@code serverQueue}: a server's hand-over of an inbound request to the thread that runs it (its
 * delay the time the request waited in the server's queue), counted in {@link ServerQueue} and in
 * none of the request's hop counts or delays.
 */
public record Hop(String kind, ThreadRef from, ThreadRef to, long arrivalEpochNanos, long delayNanos,
                  String via, long scheduledNanos, boolean serverQueue) {

    /** A hop that was not scheduled. */
    public Hop(String kind, ThreadRef from, ThreadRef to, long arrivalEpochNanos, long delayNanos, String via) {
        this(kind, from, to, arrivalEpochNanos, delayNanos, via, 0, false);
    }

    /** A hop that is not a server's hand-over. */
    public Hop(String kind, ThreadRef from, ThreadRef to, long arrivalEpochNanos, long delayNanos, String via,
               long scheduledNanos) {
        this(kind, from, to, arrivalEpochNanos, delayNanos, via, scheduledNanos, false);
    }

    /** What the delay of this kind of hop is called. */
    public String delayName() {
        return switch (kind) {
            case "wake" -> "wake latency";
            case "return" -> "return delay";
            default -> "queue delay";
        };
    }

    /**
     * The figure its delay counts in: {@code server queue} for a server's hand-over, else
     * {@link #delayName()}; what the pictures and profiles that add delays up name it by.
     */
    public String figureName() {
        return serverQueue ? "server queue" : delayName();
    }

    public long departureEpochNanos() {
        return arrivalEpochNanos - Math.max(0, delayNanos) - scheduledNanos;
    }
}
