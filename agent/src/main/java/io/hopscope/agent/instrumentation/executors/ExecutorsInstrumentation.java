package io.hopscope.agent.instrumentation.executors;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import java.util.concurrent.Callable;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;

/**
 * Carries the current request with tasks handed to the JDK's executors: ThreadPoolExecutor#execute
 * (which submit goes through), ScheduledThreadPoolExecutor's tasks (schedule*, execute and submit),
 * whose delay is counted apart from the queue delay, and the thread per task that
 * CompletableFuture's async stages use on JDK 17 when the common pool has a single worker.
 * ForkJoinPool's tasks, JDK 25's scheduled ones included, are in the forkjoin instrumentation.
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
                .type(named("java.util.concurrent.ThreadPoolExecutor")
                        .or(named("java.util.concurrent.CompletableFuture$ThreadPerTaskExecutor")))
                .transform((b, type, loader, module, domain) -> b.visit(Advice.to(RunnableAdvice.class)
                        .on(named("execute").and(takesArguments(Runnable.class)))))
                // A scheduled task's future is the task the scheduler runs and the caller's handle on
                // its result: it carries the request (made on the scheduling thread, for schedule*,
                // execute and submit alike), with the delay it was given, counted apart.
                .type(named("java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask"))
                .transform((b, type, loader, module, domain) -> b
                        // An inner class: each constructor takes its executor first (JDK 17 to 25).
                        .visit(Advice.to(OnceAdvice.class).on(isConstructor().and(takesArguments(5))
                                .and(takesArgument(1, Runnable.class))))
                        .visit(Advice.to(PeriodicAdvice.class).on(isConstructor().and(takesArguments(6))
                                .and(takesArgument(1, Runnable.class))))
                        .visit(Advice.to(CallableAdvice.class).on(isConstructor().and(takesArguments(4))
                                .and(takesArgument(1, Callable.class))))
                        .visit(Advice.to(RunAdvice.class).on(named("run").and(takesArguments(0))))
                        .visit(Advice.to(CancelAdvice.class).on(named("cancel").and(takesArguments(boolean.class)))));
    }

    /** Wraps the Runnable argument when a request is current. */
    public static final class RunnableAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.This Object executor) {
            task = Bridge.wrapRunnable(task, executor);
        }
    }

    /** ScheduledFutureTask(executor, runnable, result, triggerTime, sequence): runs once at triggerTime (nanoTime). */
    static final class OnceAdvice {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object task, @Advice.Argument(0) Object executor, @Advice.Argument(3) long triggerTime) {
            Bridge.attachTask(task, executor, triggerTime - System.nanoTime(), 0);
        }
    }

    /** ScheduledFutureTask(executor, runnable, result, triggerTime, period, sequence): period > 0 fixed rate, < 0 fixed delay. */
    static final class PeriodicAdvice {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object task, @Advice.Argument(0) Object executor, @Advice.Argument(3) long triggerTime,
                @Advice.Argument(4) long period) {
            Bridge.attachTask(task, executor, triggerTime - System.nanoTime(), period);
        }
    }

    /** ScheduledFutureTask(executor, callable, triggerTime, sequence). */
    static final class CallableAdvice {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object task, @Advice.Argument(0) Object executor, @Advice.Argument(2) long triggerTime) {
            Bridge.attachTask(task, executor, triggerTime - System.nanoTime(), 0);
        }
    }

    /** ScheduledFutureTask#run: a scheduled task runs; one volatile read when no request has one pending. */
    static final class RunAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object task) {
            return Bridge.attachedTaskEnter(task);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }

    /**
     * ScheduledFutureTask#cancel: a cancelled task may be taken out of the queue and never run (a
     * scheduler with removeOnCancel, as Reactor's are), so what it carried is forgotten here.
     */
    static final class CancelAdvice {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object task, @Advice.Return boolean cancelled) {
            if (cancelled) {
                Bridge.detachTask(task);
            }
        }
    }
}
