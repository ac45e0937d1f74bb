package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.RequestHooks;
import io.hopscope.agent.events.RequestEvent;
import io.hopscope.agent.events.RequestStartEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Requests: a boundary call begins one on its thread (or, inside a request, is a span of it) and
 * ends it when it returns, or when its asynchronous result completes, through the library's
 * {@link AsyncAdapter}. Names and statuses come from the libraries' {@link RequestDescriber}s. It
 * implements the boundary hooks itself: the Bridge calls it straight.
 */
public final class Requests implements RequestHooks {

    private static final AtomicLong REQUEST_IDS = new AtomicLong();
    /**
     * Asks whether request starts are recorded (JFR's enabled flag is per event class, so any
     * instance answers for all); never committed. Off unless {@code hopscope live} streams them.
     */
    private static final RequestStartEvent START_PROBE = new RequestStartEvent();

    private final List<RequestDescriber> describers = new CopyOnWriteArrayList<>();
    private final List<AsyncAdapter> adapters;
    private final UrlRedactor redactor;
    /** The spans of one request in this many are recorded; 0: none (agent option spans=). */
    private final int spanEvery;
    private final Carriers carriers;
    /** Told when a request kept by its exchange (RequestState#resumeKey) ends: Servers forgets it. */
    private volatile Consumer<RequestState> resumableEnded = r -> { };

    Requests(List<AsyncAdapter> adapters, UrlRedactor redactor, int spanEvery, Carriers carriers) {
        this.carriers = carriers;
        this.adapters = adapters;
        this.redactor = redactor;
        this.spanEvery = spanEvery;
    }

    void addDescriber(RequestDescriber describer) {
        describers.add(describer);
    }

    void whenResumableEnds(Consumer<RequestState> forget) {
        resumableEnded = forget;
    }

    @Override
    public Object boundaryEnter(String boundary, Object request) {
        ThreadState s = ThreadContexts.state();
        if (s.request != null) {
            // A boundary inside a request (HttpClient.send inside a requests= method): a span.
            return Spans.recorded(s.request) ? Spans.openSyncSpan(s, "boundary", boundary, null) : null;
        }
        HttpRequestInfo info = describe(request);
        // A requests= boundary describes no request object: the application's own entry point.
        return begin(s, request == null ? RequestState.INTERNAL : RequestState.CLIENT,
                info == null ? boundary : info.name, boundary, info == null ? null : info.url,
                TraceContexts.current(request), null);
    }

    /**
     * Begins a request on this thread (none is current): its Request event is {@code begun} where it
     * started (a server's hand-over; null: now), and its first segment opens now.
     */
    RequestState begin(ThreadState s, String kind, String name, String boundary, String url, String[] traceContext,
            RequestEvent begun) {
        long id = REQUEST_IDS.incrementAndGet();
        // Ids are consecutive, so one request in spanEvery is picked, evenly and repeatably.
        boolean spans = spanEvery == 1 || spanEvery > 1 && id % spanEvery == 0;
        RequestState r = new RequestState(id, kind, name, boundary, url, s.thread, spans, traceContext, begun);
        if (START_PROBE.isEnabled()) {
            RequestStartEvent started = new RequestStartEvent();
            started.requestId = id;
            started.name = r.name;
            started.commit();
        }
        SpanPosition.clear(s);
        s.request = r;
        carriers.began(s, r);
        ThreadContexts.beginSegment(s, "start");
        return r;
    }

    @Override
    public Object boundaryExit(Object token, Object result, Throwable thrown) {
        if (token instanceof ThreadState.SpanFrame) {
            Spans.closeSyncSpan((ThreadState.SpanFrame) token);
            return result;
        }
        RequestState r = (RequestState) token;
        ThreadState s = ThreadContexts.state();
        if (thrown != null) {
            r.outcome = "error";
            r.error = thrown.getClass().getName();
        } else if (result != null) {
            int status = statusCode(result);
            if (status >= 0) {
                r.statusCode = status;
            } else {
                for (AsyncAdapter adapter : adapters) {
                    Object wrapped = adapter.endRequestOnCompletion(this, r, result);
                    if (wrapped != null) {
                        // The request goes on in its result: this thread is done with it for now.
                        leaveBoundary(s, r);
                        return wrapped;
                    }
                }
            }
        }
        r.markEnded();
        leaveBoundary(s, r);
        r.commit();
        return result;
    }

    /** The thread leaves the boundary of r: out of the request, and a virtual thread's carriers written. */
    void leaveBoundary(ThreadState s, RequestState r) {
        if (s.request == r) {
            ThreadContexts.leaveRequest(s);
        }
        if (s.virtual) {
            carriers.released(s.thread);
        }
    }

    @Override
    public Object wrapCallback(Object token, Object callback) {
        if (!(token instanceof RequestState)) {
            return callback; // a nested boundary: its request goes on in the enclosing one
        }
        for (AsyncAdapter adapter : adapters) {
            Object wrapped = adapter.wrapCallback(this, (RequestState) token, callback);
            if (wrapped != null) {
                return wrapped;
            }
        }
        return callback;
    }

    /** Called by an {@link AsyncAdapter} on the thread where the request's result completed. */
    public void asyncTerminated(RequestState r, String outcome, Throwable error, Object response) {
        boolean endHere = r.terminate(outcome, error, response == null ? -1 : statusCode(response));
        if (r.resumeKey != null) {
            resumableEnded.accept(r);
        }
        if (endHere) {
            r.commit();
        }
    }

    /** Runs a subscription to the request's result with the request current on this thread (so its handoffs are seen). */
    public Object attachForSubscribe(RequestState r) {
        ThreadState s = ThreadContexts.state();
        if (s.request != null) {
            return null;
        }
        if (s.blockDepth > 0 && s.blockJoin == null && Waits.join(s, r)) {
            // Subscribed inside a block() on this thread: the request stays here until it returns.
            return null;
        }
        s.request = r;
        ThreadContexts.beginSegment(s, "resume");
        return s;
    }

    /** The subscribe call has returned; token is attachForSubscribe's. */
    public void detachAfterSubscribe(Object token) {
        if (token != null) {
            ThreadContexts.leaveRequest((ThreadState) token);
        }
    }

    private HttpRequestInfo describe(Object request) {
        if (request == null) {
            return null;
        }
        for (RequestDescriber d : describers) {
            HttpRequestInfo info = d.describe(request, redactor);
            if (info != null) {
                return info;
            }
        }
        return null;
    }

    private int statusCode(Object response) {
        for (RequestDescriber d : describers) {
            int status = d.statusCode(response);
            if (status >= 0) {
                return status;
            }
        }
        return -1;
    }
}
