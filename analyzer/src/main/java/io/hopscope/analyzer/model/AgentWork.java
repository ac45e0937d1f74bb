package io.hopscope.analyzer.model;

/**
 * The agent's own work on a request's threads (hopscope.AgentWork), not counted in the request's
 * segments: {@code classes} loaded while it worked on them, {@code transformedClasses} of them
 * rewritten, {@code nanos} of wall time and {@code cpuNanos} of CPU (-1: not measured) in the
 * agent's transformer, {@code allocatedBytes} allocated there (exact); and
 * {@code sampledAllocationBytes}, the weight of the request's allocation samples whose stack is in
 * the agent's package (its transformer and its hooks), which are never shown as the request's sites.
 */
public record AgentWork(long classes, long transformedClasses, long nanos, long cpuNanos, long allocatedBytes,
                        long sampledAllocationBytes) {

    public static final AgentWork NONE = new AgentWork(0, 0, 0, -1, 0, 0);

    /** Whether the agent did anything on the request's threads that the figures leave out. */
    public boolean any() {
        return classes > 0 || nanos > 0 || allocatedBytes > 0 || sampledAllocationBytes > 0;
    }

    /** This and {@code o} together (CPU stays unknown when either is). */
    public AgentWork plus(AgentWork o) {
        return new AgentWork(classes + o.classes, transformedClasses + o.transformedClasses, nanos + o.nanos,
                cpuNanos < 0 || o.cpuNanos < 0 ? Math.max(cpuNanos, o.cpuNanos) : cpuNanos + o.cpuNanos,
                allocatedBytes + o.allocatedBytes, sampledAllocationBytes + o.sampledAllocationBytes);
    }
}
