package io.hopscope.analyzer.testing;

/** Requests made in a W3C trace, committed as the agent commits them: what the trace-id tests record. */
public final class TracedRequests {

    public static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    public static final String SPAN_1 = "00f067aa0ba902b7";
    public static final String SPAN_2 = "b7ad6b7169203331";

    private TracedRequests() {
    }

    /** What a request does after its first segment (hands work over, joins it). */
    @FunctionalInterface
    public interface Work {
        void run() throws InterruptedException;
    }

    /**
     * Commits request {@code id}, {@code GET 127.0.0.1/traced} made in that trace and span (null: none): a first
     * segment that allocated {@code allocatedBytes}, then {@code work}.
     */
    public static void request(long id, String traceId, String spanId, long allocatedBytes, Work work)
            throws InterruptedException {
        ContractEvents.Request e = new ContractEvents.Request();
        e.begin();
        ContractEvents.instantSegment(id, "start", allocatedBytes);
        work.run();
        e.requestId = id;
        e.name = "GET 127.0.0.1/traced";
        e.boundary = "okhttp3.Call#execute";
        e.outcome = "ok";
        e.statusCode = 200;
        e.traceId = traceId;
        e.spanId = spanId;
        e.commit();
    }
}
