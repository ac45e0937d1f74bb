package io.hopscope.agent.runtime;

import io.hopscope.agent.events.SpanEvent;

/**
 * An asynchronous span (an async policy's result). Captured at assembly, where the policy's process
 * call returns; each subscription to the result opens one ({@link #subscribe}), current on the
 * subscribing thread while the subscribe call runs, and ended by the result's terminal signal.
 */
public final class AsyncSpan extends SpanPosition {

    final RequestState request;
    final String kind;
    final String name;
    /** The span position at assembly: the parent and depth when subscribed outside the request. */
    final long assemblyParentSpanId;
    final int assemblyDepth;
    /** Of an opened span only: its event, and the thread whose position it took (null: none). */
    private final SpanEvent event;
    private final ThreadState subscriber;

    AsyncSpan(RequestState request, String kind, String name, long assemblyParentSpanId, int assemblyDepth) {
        this(request, kind, name, assemblyParentSpanId, assemblyDepth, null, null);
    }

    private AsyncSpan(RequestState request, String kind, String name, long assemblyParentSpanId,
            int assemblyDepth, SpanEvent event, ThreadState subscriber) {
        this.request = request;
        this.kind = kind;
        this.name = name;
        this.assemblyParentSpanId = assemblyParentSpanId;
        this.assemblyDepth = assemblyDepth;
        this.event = event;
        this.subscriber = subscriber;
    }

    /** A subscription to the span's result: opens the span, current on this thread if in its request. */
    public AsyncSpan subscribe() {
        ThreadState s = ThreadContexts.state();
        SpanEvent e = new SpanEvent();
        e.requestId = request.id;
        e.spanId = Spans.nextSpanId(s);
        boolean sameRequest = s.request == request;
        e.parentSpanId = sameRequest ? s.spanId : assemblyParentSpanId;
        e.depth = sameRequest ? s.childDepth : assemblyDepth;
        e.kind = kind;
        e.name = name;
        e.mode = "async";
        AsyncSpan opened = new AsyncSpan(request, kind, name, assemblyParentSpanId, assemblyDepth, e,
                sameRequest ? s : null);
        if (sameRequest) {
            opened.save(s);
            SpanPosition.enter(s, e.spanId, e.depth + 1, null);
        }
        e.begin();
        return opened;
    }

    /** The subscribe call of an opened span has returned: the span is no longer current on that thread. */
    public void subscribed() {
        ThreadState s = subscriber;
        if (s != null && s.thread == Thread.currentThread()) {
            restore(s);
        }
    }

    /** The terminal signal (or cancellation) of an opened span's result. */
    public void end() {
        event.commit();
    }
}
