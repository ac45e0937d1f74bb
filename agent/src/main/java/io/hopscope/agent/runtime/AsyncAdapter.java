package io.hopscope.agent.runtime;

/** Knows one library's asynchronous results (a Reactor Mono, a CompletableFuture, a callback). */
public interface AsyncAdapter {

    /**
     * Returns the result wrapped so that the request ends when it completes (reported to
     * {@link Requests#asyncTerminated}), or null if unknown.
     */
    Object endRequestOnCompletion(Requests requests, RequestState request, Object result);

    /**
     * Returns the callback wrapped so that the request ends when it is called, or null if unknown.
     * The boundary's exit then passes the wrapper as its result, which this adapter recognises.
     */
    default Object wrapCallback(Requests requests, RequestState request, Object callback) {
        return null;
    }

    /** Returns the result wrapped so that the span runs from subscription to completion, or null. */
    default Object spanOnSubscription(AsyncSpan span, Object result) {
        return null;
    }
}
