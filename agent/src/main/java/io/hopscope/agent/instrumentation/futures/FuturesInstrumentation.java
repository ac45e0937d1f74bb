package io.hopscope.agent.instrumentation.futures;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.CompletionAdvice;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.WaitAdvice;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

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
    public List<String> preloadedClasses() {
        // CompletableFuture alone costs about 100 ms to transform on a cold JVM.
        return List.of("java.util.concurrent.CompletableFuture", "java.util.concurrent.FutureTask");
    }

    @Override
    public List<String> jdkClasses() {
        return List.of("java.util.concurrent.");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder
                .type(named("java.util.concurrent.CompletableFuture"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(WaitAdvice.of("CompletableFuture.get").on(named("get")
                                .and(takesArguments(0).or(takesArguments(2)))))
                        .visit(WaitAdvice.of("CompletableFuture.join").on(named("join").and(takesArguments(0))))
                        .visit(Advice.to(CompletionAdvice.class).on(namedOneOf("internalComplete", "completeNull",
                                "completeValue", "completeThrowable", "completeRelay"))))
                .type(named("java.util.concurrent.FutureTask"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(WaitAdvice.of("FutureTask.get").on(named("get")))
                        .visit(Advice.to(CompletionAdvice.class).on(namedOneOf("set", "setException")
                                .and(takesArguments(1)))))
                .type(named("java.util.concurrent.locks.LockSupport"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(UnparkAdvice.class).on(named("unpark").and(isStatic()))));
    }

    /** LockSupport#unpark(Thread): one volatile read when no instrumented wait is in progress. */
    static final class UnparkAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Thread thread) {
            Bridge.onUnpark(thread);
        }
    }
}
