package io.hopscope.agent.bootstrap;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a method of a part's hook interface ({@link HandoffHooks}, {@link CarrierHooks},
 * {@link RequestHooks}, {@link SpanHooks}, {@link WaitHooks}) as a hook that advice calls: the build
 * generates its static forwarder in {@code Bridge} (agent/src/build/java, BridgeGenerator) from these
 * values, so that a hook is written once. The forwarder returns {@link #orElse} at once where
 * {@link #skipWhen} holds or the part's {@link BridgeState} field is not set, and otherwise calls
 * the part, reporting anything it throws to {@link HookErrors#onError} under {@link #instrumentation}
 * and returning {@link #orElse} in its place: no fault in the runtime ever reaches the application.
 */
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.METHOD)
public @interface Hook {

    /** The instrumentation a failure is counted under (AgentError's instrumentation field). */
    String instrumentation();

    /** The parameter returned where the hook does not run or fails; empty: null (nothing, for a void hook). */
    String orElse() default "";

    /**
     * A Java condition on the hook's parameters and {@link BridgeState}'s counters under which the
     * hook is not called: its early exit, checked before anything else (the hottest hooks return
     * on one volatile read of a counter). Empty: always called.
     */
    String skipWhen() default "";
}
