package io.hopscope.analyzer.model;

/**
 * The server queue over all requests of one name ({@link ServerQueue}): how many of them the server
 * handed over at all ({@code queued}), and the mean and p99 of their time in its queue over every
 * request of the name, those not handed over counting 0 (p99 from an HdrHistogram, 3 significant
 * digits, as the latencies). Apart from the name's queue delay, which is the application's handoffs.
 */
public record ServerQueueSummary(long queued, double meanNanos, long p99Nanos) {

    public static final ServerQueueSummary NONE = new ServerQueueSummary(0, 0, 0);
}
