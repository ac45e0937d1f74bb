package io.hopscope.agent.runtime;

/** Knows one library's asynchronous results (a Reactor Mono, a CompletableFuture). */
public interface AsyncAdapter {

    /** Returns the result wrapped so that the request ends when it completes, or null if unknown. */
    Object endRequestOnCompletion(HopscopeRuntime runtime, RequestState request, Object result);

    /** Returns the result wrapped so that the span runs from subscription to completion, or null. */
    Object spanOnSubscription(HopscopeRuntime runtime, AsyncSpan span, Object result);
}
