package io.hopscope.analyzer.testing;

import io.hopscope.analyzer.model.AgentWork;
import io.hopscope.analyzer.model.Allocation;
import io.hopscope.analyzer.model.CarrierUse;
import io.hopscope.analyzer.model.GcTime;
import io.hopscope.analyzer.model.Hops;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.ServerQueue;
import io.hopscope.analyzer.model.Spans;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.Waits;
import java.util.List;

/**
 * A {@link Request} for a test, given only what the test is about: every part starts as its
 * {@code NONE}, strings as null, the status as -1, and the detail as kept.
 */
public final class RequestBuilder {

    private final long id;
    private final String name;
    private String kind;
    private String boundary;
    private String url;
    private String outcome;
    private String error;
    private int statusCode = -1;
    private String traceId;
    private String spanId;
    private ThreadRef startThread;
    private long startEpochNanos;
    private long durationNanos;
    private List<ThreadTime> threads = List.of();
    private List<Segment> segments = List.of();
    private Hops hops = Hops.NONE;
    private ServerQueue serverQueue = ServerQueue.NONE;
    private Waits waits = Waits.NONE;
    private Spans spans = Spans.NONE;
    private Allocation allocation = Allocation.NONE;
    private LockContention lock = LockContention.NONE;
    private GcTime gc = GcTime.NONE;
    private CarrierUse carriers = CarrierUse.NONE;
    private Unexplained unexplained = Unexplained.NONE;
    private AgentWork agentWork = AgentWork.NONE;
    private boolean detailKept = true;

    public RequestBuilder(long id, String name) {
        this.id = id;
        this.name = name;
    }

    /** A copy of {@code r} but for its id and name. */
    public static RequestBuilder from(Request r, long id, String name) {
        RequestBuilder b = new RequestBuilder(id, name).kind(r.kind()).boundary(r.boundary()).url(r.url())
                .outcome(r.outcome(), r.error()).statusCode(r.statusCode()).trace(r.traceId(), r.spanId())
                .started(r.startThread(), r.startEpochNanos(), r.durationNanos()).threads(r.threads())
                .segments(r.segments()).hops(r.hops()).serverQueue(r.serverQueue()).waits(r.waits()).spans(r.spans())
                .allocation(r.allocation()).lock(r.lock()).gc(r.gc()).carriers(r.carriers())
                .unexplained(r.unexplained()).agentWork(r.agentWork());
        b.detailKept = r.detailKept();
        return b;
    }

    public RequestBuilder kind(String kind) {
        this.kind = kind;
        return this;
    }

    public RequestBuilder boundary(String boundary) {
        this.boundary = boundary;
        return this;
    }

    public RequestBuilder url(String url) {
        this.url = url;
        return this;
    }

    public RequestBuilder outcome(String outcome, String error) {
        this.outcome = outcome;
        this.error = error;
        return this;
    }

    public RequestBuilder statusCode(int statusCode) {
        this.statusCode = statusCode;
        return this;
    }

    public RequestBuilder trace(String traceId, String spanId) {
        this.traceId = traceId;
        this.spanId = spanId;
        return this;
    }

    public RequestBuilder started(ThreadRef thread, long startEpochNanos, long durationNanos) {
        this.startThread = thread;
        this.startEpochNanos = startEpochNanos;
        this.durationNanos = durationNanos;
        return this;
    }

    public RequestBuilder threads(List<ThreadTime> threads) {
        this.threads = threads;
        return this;
    }

    public RequestBuilder segments(List<Segment> segments) {
        this.segments = segments;
        return this;
    }

    public RequestBuilder hops(Hops hops) {
        this.hops = hops;
        return this;
    }

    public RequestBuilder serverQueue(ServerQueue serverQueue) {
        this.serverQueue = serverQueue;
        return this;
    }

    public RequestBuilder waits(Waits waits) {
        this.waits = waits;
        return this;
    }

    public RequestBuilder spans(Spans spans) {
        this.spans = spans;
        return this;
    }

    public RequestBuilder allocation(Allocation allocation) {
        this.allocation = allocation;
        return this;
    }

    public RequestBuilder lock(LockContention lock) {
        this.lock = lock;
        return this;
    }

    public RequestBuilder gc(GcTime gc) {
        this.gc = gc;
        return this;
    }

    public RequestBuilder carriers(CarrierUse carriers) {
        this.carriers = carriers;
        return this;
    }

    public RequestBuilder unexplained(Unexplained unexplained) {
        this.unexplained = unexplained;
        return this;
    }

    public RequestBuilder agentWork(AgentWork agentWork) {
        this.agentWork = agentWork;
        return this;
    }

    /** Totals only, as for a request beyond the detail budget. */
    public RequestBuilder withoutDetail() {
        this.detailKept = false;
        return this;
    }

    public Request build() {
        return new Request(id, name, kind, boundary, url, outcome, error, statusCode, traceId, spanId, startThread,
                startEpochNanos, durationNanos, threads, segments, hops, serverQueue, waits, spans, allocation, lock, gc,
                carriers, unexplained, agentWork, detailKept);
    }
}
