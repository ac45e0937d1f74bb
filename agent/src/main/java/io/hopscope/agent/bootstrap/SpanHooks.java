package io.hopscope.agent.bootstrap;

/**
 * Hooks of the spans inside a request: a library's calls timed as one (runtime's Spans).
 * See {@link Hook} for the Bridge forwarder the build generates from each.
 */
public interface SpanHooks {

    @Hook(instrumentation = "spans")
    Object spanEnter(String kind, Object self, boolean async);

    @Hook(instrumentation = "spans", orElse = "result", skipWhen = "token == null")
    Object spanExit(Object token, Object result, Throwable thrown);
}
