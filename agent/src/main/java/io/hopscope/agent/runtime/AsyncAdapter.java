package io.hopscope.agent.runtime;

/** Knows one library's asynchronous results (a Reactor Mono, a CompletableFuture). */
public interface AsyncAdapter {

    /** Returns the result wrapped so that the request ends when it completes, or null if unknown. */
    Object endRequestOnCompletion(HopscopeRuntime runtime, RequestState request, Object result);

    /**
     * Returns the callback wrapped so that the request ends when it is called, or null if unknown.
     * The boundary's exit then passes the wrapper as its result, which this adapter recognises.
     */
    default Object wrapCallback(HopscopeRuntime runtime, RequestState request, Object callback) {
        return null;
    }

    /** Returns the result wrapped so that the span runs from subscription to completion, or null. */
    Object spanOnSubscription(HopscopeRuntime runtime, AsyncSpan span, Object result);
}
