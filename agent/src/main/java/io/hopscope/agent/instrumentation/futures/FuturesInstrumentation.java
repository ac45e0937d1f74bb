package io.hopscope.agent.instrumentation.futures;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;

/**
 * Blocking waits on JDK futures (CompletableFuture#get/join, FutureTask#get), the waker detection
 * they rely on (LockSupport#unpark, through which every JDK future, latch and lock wakes its
 * waiters, tells the runtime which thread woke a registered waiter and when), and the futures'
 * completions, so that a result picked up without a wait is known to come from the thread that
 * completed it: CompletableFuture's CAS of its result (every completion goes through one of the
 * five methods, JDK 9 to 25) and FutureTask#set/setException, each seen just before the result is
 * visible as done.
 */
public final class FuturesInstrumentation implements HopscopeInstrumentation {

    @Override
    public String name() {
        return "futures";
    }

    @Override
    public String requiredClass() {
        return null;
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder) {
        return builder
                .type(named("java.util.concurrent.CompletableFuture"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(GetAdvice.class).on(named("get").and(takesArguments(0).or(takesArguments(2)))))
                        .visit(Advice.to(JoinAdvice.class).on(named("join").and(takesArguments(0))))
                        .visit(Advice.to(CompleteAdvice.class).on(namedOneOf("internalComplete", "completeNull",
                                "completeValue", "completeThrowable", "completeRelay"))))
                .type(named("java.util.concurrent.FutureTask"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(FutureTaskGetAdvice.class).on(named("get")))
                        .visit(Advice.to(CompleteAdvice.class).on(namedOneOf("set", "setException")
                                .and(takesArguments(1)))))
                .type(named("java.util.concurrent.locks.LockSupport"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(UnparkAdvice.class).on(named("unpark").and(isStatic()))));
    }

    /** CompletableFuture#get() and #get(long, TimeUnit): the same wait, with or without a timeout. */
    static final class GetAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object future) {
            return Bridge.waitEnter("CompletableFuture.get", future);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.waitExit(token, thrown);
        }
    }

    /** CompletableFuture#join(). */
    static final class JoinAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object future) {
            return Bridge.waitEnter("CompletableFuture.join", future);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.waitExit(token, thrown);
        }
    }

    /** FutureTask#get, both overloads. */
    static final class FutureTaskGetAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object future) {
            return Bridge.waitEnter("FutureTask.get", future);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.waitExit(token, thrown);
        }
    }

    /** A completion about to happen on this thread: one ThreadLocal lookup outside a request. */
    static final class CompleteAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object future) {
            Bridge.onComplete(future);
        }
    }

    /** LockSupport#unpark(Thread): one volatile read when no instrumented wait is in progress. */
    static final class UnparkAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Thread thread) {
            Bridge.onUnpark(thread);
        }
    }
}
