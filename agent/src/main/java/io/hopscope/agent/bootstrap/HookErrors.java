package io.hopscope.agent.bootstrap;

/** Where the Bridge reports a hook's failure (runtime's AgentErrors): not a hook, and never throws. */
public interface HookErrors {

    /** {@code error} was thrown by a hook of {@code instrumentation} (AgentError's instrumentation field). */
    void onError(String instrumentation, Throwable error);
}
