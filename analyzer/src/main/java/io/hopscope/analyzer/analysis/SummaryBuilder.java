package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.AgentWork;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.RequestKinds;
import io.hopscope.analyzer.model.ServerQueueSummary;
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
    private long sumUnexplained;
    private long sumUnexplainedClipped;
    private long unexplainedRequests;
    private long warmup;
    private long agentClasses;
    private long agentTransformed;
    private long agentNanos;
    private long agentCpuNanos = -1;
    private long agentBytes;
    private long agentSampledBytes;
    private long serverRequests;
    private long clientRequests;
    private long internalRequests;
    private long sumServerQueue;
    private long serverQueued;
    // Each request's time in its server's queue, 0 for those not handed over; made at the name's first
    // server request (with a 0 for each request before it), so that a client's name costs nothing.
    private Histogram serverQueue;

    SummaryBuilder(String name) {
        this.name = name;
        latency.setAutoResize(true);
    }

    void add(RequestInProgress r) {
        count++;
        latency.recordValue(Math.max(0, r.durationNanos));
        minStart = Math.min(minStart, r.startEpochNanos);
        maxEnd = Math.max(maxEnd, r.endEpochNanos());
        sumNanos += r.durationNanos;
        addSums(r, 1);
        if (r.outcome != null && !"ok".equals(r.outcome)) {
            errors++;
        }
        if (RequestKinds.SERVER.equals(r.kind)) {
            serverRequests++;
        } else if (RequestKinds.CLIENT.equals(r.kind)) {
            clientRequests++;
        } else if (RequestKinds.INTERNAL.equals(r.kind)) {
            internalRequests++;
        }
        if (serverQueue == null && (r.serverQueueHops > 0 || RequestKinds.SERVER.equals(r.kind))) {
            serverQueue = new Histogram(3);
            serverQueue.setAutoResize(true);
            if (count > 1) {
                serverQueue.recordValueWithCount(0, count - 1);
            }
        }
        if (serverQueue != null) {
            serverQueue.recordValue(Math.max(0, r.serverQueueNanos));
        }
    }

    /**
     * Adds ({@code sign} 1) or takes out (-1) a request's figures that events committed after its end
     * can change: a late event's request is taken out, amended, and added again. The maximum of hops
     * stays exact that way, as a request's hops only grow.
     */
    void addSums(RequestInProgress r, int sign) {
        sumHops += sign * (long) r.hopCount;
        if (sign > 0) {
            maxHops = Math.max(maxHops, r.hopCount);
        }
        sumQueueDelay += sign * r.queueDelayNanos;
        sumWakeLatency += sign * r.wakeLatencyNanos;
        sumHandoffs += sign * (long) r.handoffHops;
        sumWakes += sign * (long) r.wakeHops;
        sumReturns += sign * (long) r.returnHops;
        sumReturnDelay += sign * r.returnDelayNanos;
        sumAllocated += sign * r.allocatedBytes;
        sumLock += sign * r.lockNanos;
        sumBlocked += sign * r.blockedNanos;
        sumGc += sign * r.gcNanos;
        sumMounts += sign * (long) r.mounts;
        sumMountWait += sign * r.mountWaitNanos;
        sumPinned += sign * r.pinnedNanos;
        long unexplained = r.unexplainedNanos();
        sumUnexplained += sign * unexplained;
        sumUnexplainedClipped += sign * Math.min(unexplained, Math.max(0, r.durationNanos));
        if (unexplained > 0) {
            unexplainedRequests += sign;
        }
        if (r.nonBlocking) {
            nonBlocking += sign;
        }
        sumServerQueue += sign * r.serverQueueNanos;
        if (r.serverQueueHops > 0) {
            serverQueued += sign;
        }
        if (r.warmup()) {
            warmup += sign;
        }
        AgentWorkTotals a = r.agent;
        if (a != null) {
            agentClasses += sign * a.classes;
            agentTransformed += sign * a.transformedClasses;
            agentNanos += sign * a.nanos;
            if (a.cpuNanos >= 0) {
                agentCpuNanos = Math.max(0, agentCpuNanos) + sign * a.cpuNanos;
            }
            agentBytes += sign * a.allocatedBytes;
            agentSampledBytes += sign * a.sampledBytes;
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
                nonBlocking / n, errors, sumUnexplained / n,
                sumNanos > 0 ? 1 - sumUnexplainedClipped / (double) sumNanos : 1, unexplainedRequests, warmup,
                agentClasses == 0 && agentNanos == 0 && agentBytes == 0 && agentSampledBytes == 0 ? AgentWork.NONE
                        : new AgentWork(agentClasses, agentTransformed, agentNanos, agentCpuNanos, agentBytes,
                                agentSampledBytes),
                new RequestKinds(serverRequests, clientRequests, internalRequests),
                serverQueue == null && serverQueued == 0 ? ServerQueueSummary.NONE
                        : new ServerQueueSummary(serverQueued, sumServerQueue / n,
                                serverQueue == null ? 0 : serverQueue.getValueAtPercentile(99)));
    }
}
