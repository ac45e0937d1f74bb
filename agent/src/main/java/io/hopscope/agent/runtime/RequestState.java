package io.hopscope.agent.runtime;

import io.hopscope.agent.events.RequestEvent;

/**
 * One request in flight. Only threads, tasks and results that work on it refer to it, so a request
 * that never ends is simply collected with them: no table holds it.
 *
 * <p>Its end is decided by up to three threads at once (the boundary's, the one where its async
 * result completes, one blocked on that result), so its lifecycle (joiner, terminated, ended) is
 * written only by the synchronized methods below, each a few field accesses: whichever method
 * returns true is the one caller that commits the Request event. Whether it has ended is read
 * without the lock (hasEnded), the decisions under it.
 */
public final class RequestState {

    /** What kind of request: {@link #SERVER}, {@link #CLIENT} or {@link #INTERNAL} (the Request event's kind). */
    static final String SERVER = "server";
    static final String CLIENT = "client";
    static final String INTERNAL = "internal";

    final long id;
    final RequestEvent event;
    final String kind;
    /**
     * The request's name; an inbound request's is renamed once its framework has matched a route
     * (Servers#serverRoute), on the thread that handles it, before its end is decided.
     */
    volatile String name;
    final String boundary;
    final String url;
    final Thread startThread;
    /** Whether this request's spans are recorded (agent option spans=1/N picks one request in N). */
    final boolean spans;
    /** The W3C trace context current when it began ({@link TraceContexts}), or null. */
    String traceId;
    String spanId;

    /**
     * An inbound request whose end is arranged elsewhere (a listener, a wrapped callback, the
     * server's end hook): its server's entry returning does not end it. Written by the threads that
     * handle it, in turn.
     */
    volatile boolean endsLater;
    /** An inbound request's HTTP method, which a route renames it with; null for any other. */
    String method;
    /** An inbound request's describer, the one of the exchange it began with. */
    ServerDescriber describer;
    /**
     * The exchange an inbound request is kept by while it goes on after its entry returned
     * (Servers#continuesAfterReturn), or null.
     */
    volatile Object resumeKey;
    /** Whether its trace context came from the caller's traceparent header (an OpenTelemetry span may replace it). */
    boolean traceFromWire;
    /**
     * The identity hash of the exchange an inbound request that ends at its server's end hook was
     * begun for (0 for any other): which exchange it is, without holding it (Servers keeps its
     * open requests by exchange, weakly).
     */
    int exchangeHash;

    /** Written by the boundary's thread, or under the lock by {@link #terminate}. */
    String outcome = "ok";
    String error;
    int statusCode = -1;

    /** A thread blocked waiting for this request's asynchronous result, or null. */
    private Thread joiner;
    /** The asynchronous result has completed. */
    private boolean terminated;
    /**
     * The Request event has been committed (or is being, by the caller told so). Written under the
     * lock; volatile so that hasEnded, asked at every task start and channel write of a request,
     * takes no lock.
     */
    private volatile boolean ended;
    /** Results its threads completed lately, made at the first (see {@link Completions}). */
    private Completions completions;

    RequestState(long id, String kind, String name, String boundary, String url, Thread startThread, boolean spans,
            String[] traceContext) {
        this(id, kind, name, boundary, url, startThread, spans, traceContext, null);
    }

    /** {@code begun}: the Request event, begun where the request started (a server's hand-over), or null: now. */
    RequestState(long id, String kind, String name, String boundary, String url, Thread startThread, boolean spans,
            String[] traceContext, RequestEvent begun) {
        this.id = id;
        this.kind = kind;
        this.spans = spans;
        this.traceId = traceContext == null ? null : traceContext[0];
        this.spanId = traceContext == null ? null : traceContext[1];
        this.name = name;
        this.boundary = boundary;
        this.url = url;
        this.startThread = startThread;
        if (begun != null) {
            this.event = begun;
        } else {
            this.event = new RequestEvent();
            this.event.begin();
        }
    }

    public long id() {
        return id;
    }

    boolean hasEnded() {
        return ended;
    }

    /** The boundary returned with the request's result: it ends now. */
    synchronized void markEnded() {
        ended = true;
    }

    /**
     * A thread starts blocking on the request's result: it joins unless the request has ended or
     * another thread has joined already. A joined request ends on its joiner, when the wait returns.
     */
    synchronized boolean join(Thread thread) {
        if (ended || joiner != null) {
            return false;
        }
        joiner = thread;
        return true;
    }

    /** The joiner's wait returned; true if the result completed meanwhile: the request ends here. */
    synchronized boolean leaveJoin() {
        joiner = null;
        boolean endHere = terminated && !ended;
        if (endHere) {
            ended = true;
        }
        return endHere;
    }

    /**
     * The asynchronous result completed (the first report counts); true if the request ends now, on
     * this thread, false if it ended before or a joiner ends it when it resumes (to include the wake).
     */
    synchronized boolean terminate(String outcome, Throwable error, int statusCode) {
        if (terminated) {
            return false;
        }
        terminated = true;
        if (error != null) {
            this.error = error.getClass().getName();
        }
        // An error or a cancellation seen before the end (failedMeanwhile, cancelledMeanwhile) stays
        // the outcome of a request that ends "ok".
        this.outcome = !"ok".equals(outcome) ? outcome : this.error != null ? "error" : this.outcome;
        if (statusCode >= 0) {
            this.statusCode = statusCode;
        }
        boolean endNow = joiner == null && !ended;
        if (endNow) {
            ended = true;
        }
        return endNow;
    }

    /**
     * The server's entry threw while the request goes on (its end is arranged elsewhere): its outcome
     * is an error unless its end says otherwise first.
     */
    synchronized void failedMeanwhile(Throwable thrown) {
        if (!terminated && error == null) {
            outcome = "error";
            error = thrown.getClass().getName();
        }
    }

    /**
     * The inbound request's caller went away before its response was complete (its connection
     * closed): its outcome is cancelled unless it failed meanwhile or its end says otherwise first.
     */
    synchronized void cancelledMeanwhile() {
        if (!terminated && error == null) {
            outcome = "cancelled";
        }
    }

    /** This request's completed results, made on first use. */
    synchronized Completions completions() {
        if (completions == null) {
            completions = new Completions();
        }
        return completions;
    }

    /** This request's completed results, or null when none was recorded. */
    synchronized Completions completionsIfAny() {
        return completions;
    }

    /** Writes the Request event; called once, by the thread whose call above ended the request. */
    void commit() {
        RequestEvent e = event;
        e.requestId = id;
        e.kind = kind;
        e.name = name;
        e.boundary = boundary;
        e.url = url;
        e.outcome = outcome;
        e.error = error;
        e.statusCode = statusCode;
        e.traceId = traceId;
        e.spanId = spanId;
        // Null when the request ends where it started (the event's own thread, which readers use
        // then): JDK 17 writes a Thread field through a native call, one per request saved.
        e.startThread = startThread == Thread.currentThread() ? null : startThread;
        e.commit();
    }
}
