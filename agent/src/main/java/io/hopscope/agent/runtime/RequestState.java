package io.hopscope.agent.runtime;

import io.hopscope.agent.events.RequestEvent;

/**
 * One request in flight. Only threads, tasks and results that work on it refer to it, so a request
 * that never ends is simply collected with them: no table holds it.
 */
public final class RequestState {

    final long id;
    final RequestEvent event;
    final String name;
    final String boundary;
    final String url;
    final Thread startThread;
    /** Whether this request's spans are recorded (agent option spans=1/N picks one request in N). */
    final boolean spans;

    String outcome = "ok";
    String error;
    int statusCode = -1;

    /** A thread blocked waiting for this request's asynchronous result, or null (guarded by this). */
    Thread joiner;
    /** The asynchronous result has completed (guarded by this). */
    boolean terminated;
    /** The Request event has been committed (guarded by this). */
    boolean ended;

    RequestState(long id, String name, String boundary, String url, Thread startThread, boolean spans) {
        this.id = id;
        this.spans = spans;
        this.name = name;
        this.boundary = boundary;
        this.url = url;
        this.startThread = startThread;
        this.event = new RequestEvent();
        this.event.begin();
    }

    public long id() {
        return id;
    }
}
