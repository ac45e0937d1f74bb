package io.hopscope.analyzer.model;

/**
 * Figures over all requests of one name. Latencies come from an HdrHistogram (3 significant digits);
 * throughput is requests per second over the window from the first start to the last end. The
 * means of mounts, mount wait and pinned time are over all requests of the name, virtual threads or not.
 * {@code explainedShare} is the share of the requests' time that hopscope explains: 1 less their
 * unexplained parked and monitor time ({@link Unexplained}, each request's at most its duration) over
 * their total duration; {@code unexplainedRequests} how many requests had some.
 */
public record NameSummary(
        String name,
        long count,
        double throughputPerSecond,
        long p50Nanos,
        long p90Nanos,
        long p99Nanos,
        long maxNanos,
        double meanNanos,
        double meanHops,
        int maxHops,
        double meanQueueDelayNanos,
        double meanWakeLatencyNanos,
        double meanHandoffHops,
        double meanWakeHops,
        double meanReturnHops,
        double meanReturnDelayNanos,
        double meanAllocatedBytes,
        double meanLockNanos,
        double meanBlockedNanos,
        double meanGcNanos,
        double meanMounts,
        double meanMountWaitNanos,
        double meanPinnedNanos,
        double nonBlockingShare,
        long errors,
        double meanUnexplainedNanos,
        double explainedShare,
        long unexplainedRequests) {
}
