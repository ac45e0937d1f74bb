package io.hopscope.analyzer.model;

/**
 * Figures over all requests of one name. Latencies come from an HdrHistogram (3 significant digits);
 * throughput is requests per second over the window from the first start to the last end. The
 * means of mounts, mount wait and pinned time are over all requests of the name, virtual threads or not.
 * {@code explainedShare} is the share of the requests' time that hopscope explains: 1 less their
 * unexplained parked and monitor time ({@link Unexplained}, each request's at most its duration) over
 * their total duration; {@code unexplainedRequests} how many requests had some.
 * {@code warmupRequests} of the {@code count} are warm-up requests (see {@link Request#warmup()}),
 * included in every figure unless the report excludes them; {@code agentWork} is the agent's own
 * work on the name's requests, in none of the figures. {@code kinds} counts its requests by kind;
 * {@code serverQueue} is their time in their server's queue, in none of the hop figures (the queue
 * delay is the application's handoffs only).
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
        long unexplainedRequests,
        long warmupRequests,
        AgentWork agentWork,
        RequestKinds kinds,
        ServerQueueSummary serverQueue) {

    /** A summary of requests of no known kind (tests, and older recordings). */
    public NameSummary(String name, long count, double throughputPerSecond, long p50Nanos, long p90Nanos,
                       long p99Nanos, long maxNanos, double meanNanos, double meanHops, int maxHops,
                       double meanQueueDelayNanos, double meanWakeLatencyNanos, double meanHandoffHops,
                       double meanWakeHops, double meanReturnHops, double meanReturnDelayNanos,
                       double meanAllocatedBytes, double meanLockNanos, double meanBlockedNanos, double meanGcNanos,
                       double meanMounts, double meanMountWaitNanos, double meanPinnedNanos, double nonBlockingShare,
                       long errors, double meanUnexplainedNanos, double explainedShare, long unexplainedRequests,
                       long warmupRequests, AgentWork agentWork) {
        this(name, count, throughputPerSecond, p50Nanos, p90Nanos, p99Nanos, maxNanos, meanNanos, meanHops, maxHops,
                meanQueueDelayNanos, meanWakeLatencyNanos, meanHandoffHops, meanWakeHops, meanReturnHops,
                meanReturnDelayNanos, meanAllocatedBytes, meanLockNanos, meanBlockedNanos, meanGcNanos, meanMounts,
                meanMountWaitNanos, meanPinnedNanos, nonBlockingShare, errors, meanUnexplainedNanos, explainedShare,
                unexplainedRequests, warmupRequests, agentWork, RequestKinds.NONE, ServerQueueSummary.NONE);
    }

    /** A summary without warm-up requests or agent work (tests, and the figures of older recordings). */
    public NameSummary(String name, long count, double throughputPerSecond, long p50Nanos, long p90Nanos,
                       long p99Nanos, long maxNanos, double meanNanos, double meanHops, int maxHops,
                       double meanQueueDelayNanos, double meanWakeLatencyNanos, double meanHandoffHops,
                       double meanWakeHops, double meanReturnHops, double meanReturnDelayNanos,
                       double meanAllocatedBytes, double meanLockNanos, double meanBlockedNanos, double meanGcNanos,
                       double meanMounts, double meanMountWaitNanos, double meanPinnedNanos, double nonBlockingShare,
                       long errors, double meanUnexplainedNanos, double explainedShare, long unexplainedRequests) {
        this(name, count, throughputPerSecond, p50Nanos, p90Nanos, p99Nanos, maxNanos, meanNanos, meanHops, maxHops,
                meanQueueDelayNanos, meanWakeLatencyNanos, meanHandoffHops, meanWakeHops, meanReturnHops,
                meanReturnDelayNanos, meanAllocatedBytes, meanLockNanos, meanBlockedNanos, meanGcNanos, meanMounts,
                meanMountWaitNanos, meanPinnedNanos, nonBlockingShare, errors, meanUnexplainedNanos, explainedShare,
                unexplainedRequests, 0, AgentWork.NONE, RequestKinds.NONE, ServerQueueSummary.NONE);
    }

    /** Whether a server received any of its requests, or handed one over: what its server queue figures are for. */
    public boolean server() {
        return kinds.server() > 0 || serverQueue.queued() > 0;
    }
}
