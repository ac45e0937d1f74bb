package io.hopscope.analyzer.model;

import java.util.List;

/**
 * One request as the report shows it: the agent's events for it joined with the JDK's events that
 * fall inside its segments. Times are epoch nanoseconds (JFR's clock). {@code kind} is {@code server},
 * {@code client} or {@code internal} ({@link RequestKinds}), null in a recording from before the field;
 * {@code traceId} and {@code spanId} are the W3C trace context it began in ({@link TraceIds}), null when
 * none. Each of its figures is a part with its own record: {@link Hops}, {@link ServerQueue} (its time
 * in its server's queue, apart from every hop figure), {@link Waits}, {@link Spans},
 * {@link Allocation}, {@link LockContention}, {@link GcTime}, {@link CarrierUse} (what its virtual
 * threads did on their carriers), {@link Unexplained} (its parked and monitor time that no wait or hop
 * of it explains) and {@link AgentWork} (the agent's own work on its threads, left out of every other
 * figure). When the recording has more requests than the analyzer keeps detail for
 * ({@code detailKept} false), the parts' lists and {@code segments} are empty but every total is exact.
 */
public record Request(
        long id,
        String name,
        String kind,
        String boundary,
        String url,
        String outcome,
        String error,
        int statusCode,
        String traceId,
        String spanId,
        ThreadRef startThread,
        long startEpochNanos,
        long durationNanos,
        List<ThreadTime> threads,
        List<Segment> segments,
        Hops hops,
        ServerQueue serverQueue,
        Waits waits,
        Spans spans,
        Allocation allocation,
        LockContention lock,
        GcTime gc,
        CarrierUse carriers,
        Unexplained unexplained,
        AgentWork agentWork,
        boolean detailKept) {

    /** Whether its threads loaded classes while they worked on it (the agent saw each one): a warm-up request. */
    public boolean warmup() {
        return agentWork.classes() > 0;
    }

    /** Whether a server received it (its kind is {@code server}). */
    public boolean server() {
        return RequestKinds.SERVER.equals(kind);
    }

    public long endEpochNanos() {
        return startEpochNanos + durationNanos;
    }
}
