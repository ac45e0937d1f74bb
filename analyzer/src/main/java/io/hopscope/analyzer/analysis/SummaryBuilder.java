package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.NameSummary;
import org.HdrHistogram.Histogram;

/** Per-name figures, accumulated one request at a time (an HdrHistogram for the latencies). */
final class SummaryBuilder {

    private final String name;
    // Auto-resizing, 3 significant digits: a few KB per name whatever the count.
    private final Histogram latency = new Histogram(3);
    private long count;
    private long minStart = Long.MAX_VALUE;
    private long maxEnd = Long.MIN_VALUE;
    private long sumNanos;
    private long sumHops;
    private int maxHops;
    private long sumQueueDelay;
    private long sumWakeLatency;
    private long sumHandoffs;
    private long sumWakes;
    private long sumReturns;
    private long sumReturnDelay;
    private long sumAllocated;
    private long sumLock;
    private long sumBlocked;
    private long sumGc;
    private long sumMounts;
    private long sumMountWait;
    private long sumPinned;
    private long nonBlocking;
    private long errors;

    SummaryBuilder(String name) {
        this.name = name;
        latency.setAutoResize(true);
    }

    void add(RequestAcc r) {
        count++;
        latency.recordValue(Math.max(0, r.durationNanos));
        minStart = Math.min(minStart, r.startEpochNanos);
        maxEnd = Math.max(maxEnd, r.endEpochNanos());
        sumNanos += r.durationNanos;
        sumHops += r.hops;
        maxHops = Math.max(maxHops, r.hops);
        sumQueueDelay += r.queueDelayNanos;
        sumWakeLatency += r.wakeLatencyNanos;
        sumHandoffs += r.handoffHops;
        sumWakes += r.wakeHops;
        sumReturns += r.returnHops;
        sumReturnDelay += r.returnDelayNanos;
        sumAllocated += r.allocatedBytes;
        sumLock += r.lockNanos;
        sumBlocked += r.blockedNanos;
        sumGc += r.gcNanos;
        sumMounts += r.mounts;
        sumMountWait += r.mountWaitNanos;
        sumPinned += r.pinnedNanos;
        if (r.nonBlocking) {
            nonBlocking++;
        }
        if (r.outcome != null && !"ok".equals(r.outcome)) {
            errors++;
        }
    }

    NameSummary build() {
        long windowNanos = maxEnd - minStart;
        double throughput = windowNanos > 0 ? count * 1e9 / windowNanos : 0;
        double n = Math.max(1, count);
        return new NameSummary(name, count, throughput,
                latency.getValueAtPercentile(50), latency.getValueAtPercentile(90),
                latency.getValueAtPercentile(99), latency.getMaxValue(), sumNanos / n,
                sumHops / n, maxHops, sumQueueDelay / n, sumWakeLatency / n, sumHandoffs / n, sumWakes / n,
                sumReturns / n, sumReturnDelay / n, sumAllocated / n,
                sumLock / n, sumBlocked / n, sumGc / n, sumMounts / n, sumMountWait / n, sumPinned / n,
                nonBlocking / n, errors);
    }
}
