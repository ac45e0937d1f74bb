package io.hopscope.agent.instrumentation;

import io.hopscope.agent.bootstrap.Bridge;
import net.bytebuddy.asm.Advice;

/**
 * A result (the advised future, task or blocking subscriber) is about to be completed on this
 * thread, before it is visible as done: the thread that picks it up without waiting can then be
 * told where it came from. One ThreadLocal lookup outside a request.
 */
public final class CompletionAdvice {

    private CompletionAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(@Advice.This Object result) {
        Bridge.onComplete(result);
    }
}
