package io.hopscope.analyzer.model;

import java.util.List;

/**
 * One request as the report shows it: the agent's events for it joined with the JDK's events that
 * fall inside its segments. Times are epoch nanoseconds (JFR's clock). When the recording has more
 * requests than the analyzer keeps detail for ({@code detailKept} false), the lists
 * {@code hopList}, {@code segments}, {@code waits} and {@code spans} are empty but every total is exact.
 * {@code hopCount} counts every kind; {@code handoffHops}, {@code wakeHops} and {@code returnHops} each
 * kind (queue delay is the handoffs', wake latency the wakes', return delay the returns').
 * {@code allocatedBytes} is exact but for {@code estimatedAllocatedBytes} of it: the allocation
 * samples of threads whose segments had no allocation counter (virtual threads on JDK 21-25).
 * {@code carriers} is what its virtual threads did on their carriers, {@link CarrierUse#NONE} when it had none.
 * {@code unexplained} is its parked and monitor time that no wait or hop of it explains, {@link Unexplained#NONE} when none.
 * {@code agentWork} is the agent's own work on its threads, left out of every other figure; a request
 * during which its threads loaded classes is a warm-up request ({@link #warmup()}). {@code traceId} and
 * {@code spanId} are the W3C trace context it began in ({@link TraceIds}), null when none. {@code kind}
 * is {@code server}, {@code client} or {@code internal} ({@link RequestKinds}), null in a recording from
 * before the field; {@code serverQueue} is its time in its server's queue, apart from every hop figure
 * above ({@link ServerQueue#NONE} without a server's hand-over): its hops and queue delay are the
 * application's own, the server's hand-over being in {@code hopList} only, marked.
 */
public record Request(
        long id,
        String name,
        String boundary,
        String url,
        String outcome,
        String error,
        int statusCode,
        ThreadRef startThread,
        long startEpochNanos,
        long durationNanos,
        int hopCount,
        List<Hop> hopList,
        List<ThreadTime> threads,
        List<Segment> segments,
        List<Wait> waits,
        List<Span> spans,
        long allocatedBytes,
        long estimatedAllocatedBytes,
        long blockedNanos,
        long queueDelayNanos,
        long wakeLatencyNanos,
        int handoffHops,
        int wakeHops,
        int returnHops,
        long returnDelayNanos,
        boolean blockedOnNonBlockingThread,
        List<PolicyTime> policies,
        LockContention lock,
        List<AllocationSite> allocationSites,
        long gcNanos,
        List<GcPause> gcPauses,
        CarrierUse carriers,
        boolean detailKept,
        Unexplained unexplained,
        AgentWork agentWork,
        String traceId,
        String spanId,
        String kind,
        ServerQueue serverQueue) {

    /** A request of no known kind (tests, and older recordings). */
    public Request(long id, String name, String boundary, String url, String outcome, String error, int statusCode,
                   ThreadRef startThread, long startEpochNanos, long durationNanos, int hopCount, List<Hop> hopList,
                   List<ThreadTime> threads, List<Segment> segments, List<Wait> waits, List<Span> spans,
                   long allocatedBytes, long estimatedAllocatedBytes, long blockedNanos, long queueDelayNanos,
                   long wakeLatencyNanos, int handoffHops, int wakeHops, int returnHops, long returnDelayNanos,
                   boolean blockedOnNonBlockingThread, List<PolicyTime> policies, LockContention lock,
                   List<AllocationSite> allocationSites, long gcNanos, List<GcPause> gcPauses, CarrierUse carriers,
                   boolean detailKept, Unexplained unexplained, AgentWork agentWork, String traceId, String spanId) {
        this(id, name, boundary, url, outcome, error, statusCode, startThread, startEpochNanos, durationNanos, hopCount,
                hopList, threads, segments, waits, spans, allocatedBytes, estimatedAllocatedBytes, blockedNanos,
                queueDelayNanos, wakeLatencyNanos, handoffHops, wakeHops, returnHops, returnDelayNanos,
                blockedOnNonBlockingThread, policies, lock, allocationSites, gcNanos, gcPauses, carriers, detailKept,
                unexplained, agentWork, traceId, spanId, null, ServerQueue.NONE);
    }

    /** A request without a trace context (tests, and older recordings). */
    public Request(long id, String name, String boundary, String url, String outcome, String error, int statusCode,
                   ThreadRef startThread, long startEpochNanos, long durationNanos, int hopCount, List<Hop> hopList,
                   List<ThreadTime> threads, List<Segment> segments, List<Wait> waits, List<Span> spans,
                   long allocatedBytes, long estimatedAllocatedBytes, long blockedNanos, long queueDelayNanos,
                   long wakeLatencyNanos, int handoffHops, int wakeHops, int returnHops, long returnDelayNanos,
                   boolean blockedOnNonBlockingThread, List<PolicyTime> policies, LockContention lock,
                   List<AllocationSite> allocationSites, long gcNanos, List<GcPause> gcPauses, CarrierUse carriers,
                   boolean detailKept, Unexplained unexplained, AgentWork agentWork) {
        this(id, name, boundary, url, outcome, error, statusCode, startThread, startEpochNanos, durationNanos, hopCount,
                hopList, threads, segments, waits, spans, allocatedBytes, estimatedAllocatedBytes, blockedNanos,
                queueDelayNanos, wakeLatencyNanos, handoffHops, wakeHops, returnHops, returnDelayNanos,
                blockedOnNonBlockingThread, policies, lock, allocationSites, gcNanos, gcPauses, carriers, detailKept,
                unexplained, agentWork, null, null, null, ServerQueue.NONE);
    }

    /** A request without agent work (tests, and the figures of older recordings). */
    public Request(long id, String name, String boundary, String url, String outcome, String error, int statusCode,
                   ThreadRef startThread, long startEpochNanos, long durationNanos, int hopCount, List<Hop> hopList,
                   List<ThreadTime> threads, List<Segment> segments, List<Wait> waits, List<Span> spans,
                   long allocatedBytes, long estimatedAllocatedBytes, long blockedNanos, long queueDelayNanos,
                   long wakeLatencyNanos, int handoffHops, int wakeHops, int returnHops, long returnDelayNanos,
                   boolean blockedOnNonBlockingThread, List<PolicyTime> policies, LockContention lock,
                   List<AllocationSite> allocationSites, long gcNanos, List<GcPause> gcPauses, CarrierUse carriers,
                   boolean detailKept, Unexplained unexplained) {
        this(id, name, boundary, url, outcome, error, statusCode, startThread, startEpochNanos, durationNanos, hopCount,
                hopList, threads, segments, waits, spans, allocatedBytes, estimatedAllocatedBytes, blockedNanos,
                queueDelayNanos, wakeLatencyNanos, handoffHops, wakeHops, returnHops, returnDelayNanos,
                blockedOnNonBlockingThread, policies, lock, allocationSites, gcNanos, gcPauses, carriers, detailKept,
                unexplained, AgentWork.NONE, null, null, null, ServerQueue.NONE);
    }

    /** Whether its threads loaded classes while they worked on it (the agent saw each one). */
    public boolean warmup() {
        return agentWork.classes() > 0;
    }

    /** Whether a server received it (its kind is {@code server}). */
    public boolean server() {
        return RequestKinds.SERVER.equals(kind);
    }

    /** Its outbound calls: the time per nested request boundary ({@code boundary} spans) it made. */
    public List<PolicyTime> calls() {
        return policies.stream().filter(p -> Span.BOUNDARY.equals(p.kind())).toList();
    }

    public long endEpochNanos() {
        return startEpochNanos + durationNanos;
    }
}
