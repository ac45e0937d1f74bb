package io.hopscope.analyzer.model;

import java.util.List;

/**
 * A request's hops between threads: {@code count} of every kind, of which {@code handoffs} (their
 * queue delays summed in {@code queueDelayNanos}), {@code wakes} ({@code wakeLatencyNanos}) and
 * {@code returns} ({@code returnDelayNanos}); {@code list} holds each hop by arrival while the request
 * keeps its detail, its server's hand-over marked ({@link Hop#serverQueue()}) but in no figure here
 * ({@link ServerQueue} has it).
 */
public record Hops(int count, int handoffs, long queueDelayNanos, int wakes, long wakeLatencyNanos, int returns,
                   long returnDelayNanos, List<Hop> list) {

    public static final Hops NONE = new Hops(0, 0, 0, 0, 0, 0, 0, List.of());
}
