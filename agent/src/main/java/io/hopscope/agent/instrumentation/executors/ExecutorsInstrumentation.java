package io.hopscope.agent.instrumentation.executors;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import java.util.concurrent.Callable;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;

/**
 * Carries the current request with tasks handed to the JDK pools: ThreadPoolExecutor#execute
 * (which submit goes through), ScheduledThreadPoolExecutor#schedule (which its execute and submit
 * go through) and ForkJoinPool#execute/submit (CompletableFuture's async stages).
 */
public final class ExecutorsInstrumentation implements HopscopeInstrumentation {

    @Override
    public String name() {
        return "executors";
    }

    @Override
    public String requiredClass() {
        return null;
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder) {
        return builder
                .type(named("java.util.concurrent.ThreadPoolExecutor"))
                .transform((b, type, loader, module, domain) -> b.visit(Advice.to(RunnableAdvice.class)
                        .on(named("execute").and(takesArguments(Runnable.class)))))
                .type(named("java.util.concurrent.ScheduledThreadPoolExecutor"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(RunnableAdvice.class).on(named("schedule").and(takesArguments(3))
                                .and(takesArgument(0, Runnable.class))))
                        .visit(Advice.to(CallableAdvice.class).on(named("schedule").and(takesArguments(3))
                                .and(takesArgument(0, Callable.class)))))
                // Not submit(ForkJoinTask) nor submit(Runnable): they return the task they were
                // given, and a wrapped one would change what the caller gets back.
                .type(named("java.util.concurrent.ForkJoinPool"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(RunnableAdvice.class).on(named("execute").and(takesArguments(Runnable.class))))
                        .visit(Advice.to(CallableAdvice.class).on(named("submit").and(takesArguments(Callable.class)))));
    }

    /** Wraps the Runnable argument when a request is current. */
    public static final class RunnableAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.This Object executor) {
            task = Bridge.wrapRunnable(task, executor);
        }
    }

    /** Wraps the Callable argument when a request is current. */
    static final class CallableAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Callable<?> task, @Advice.This Object executor) {
            task = Bridge.wrapCallable(task, executor);
        }
    }
}
