package io.hopscope.agent.bootstrap;

/**
 * Hooks of a request's boundaries, where a request begins and ends (runtime's Requests).
 * See {@link Hook} for the Bridge forwarder the build generates from each.
 */
public interface RequestHooks {

    @Hook(instrumentation = "boundaries")
    Object boundaryEnter(String boundary, Object request);

    @Hook(instrumentation = "boundaries", orElse = "result", skipWhen = "token == null")
    Object boundaryExit(Object token, Object result, Throwable thrown);

    /** For a boundary that takes a callback: the callback that ends the request when called. */
    @Hook(instrumentation = "boundaries", orElse = "callback", skipWhen = "token == null || callback == null")
    Object wrapCallback(Object token, Object callback);
}
