package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.AgentWork;

/** The agent's own work on one request's threads while it is read (hopscope.AgentWork, and allocation samples in its package). */
final class AgentWorkTotals {

    long classes;
    long transformedClasses;
    long nanos;
    long cpuNanos = -1;
    long allocatedBytes;
    long sampledBytes;

    void add(int classes, int transformed, long nanos, long cpuNanos, long bytes) {
        this.classes += classes;
        transformedClasses += transformed;
        this.nanos += Math.max(0, nanos);
        if (cpuNanos >= 0) {
            this.cpuNanos = Math.max(0, this.cpuNanos) + cpuNanos;
        }
        allocatedBytes += Math.max(0, bytes);
    }

    AgentWork toAgentWork() {
        return classes == 0 && nanos == 0 && allocatedBytes == 0 && sampledBytes == 0
                ? AgentWork.NONE
                : new AgentWork(classes, transformedClasses, nanos, cpuNanos, allocatedBytes, sampledBytes);
    }
}
