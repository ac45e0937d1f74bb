package io.hopscope.agent.instrumentation.forkjoin;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.CompletionAdvice;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.WaitAdvice;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinTask;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Fork/join: tasks forked or handed to a ForkJoinPool (the common pool included, which
 * CompletableFuture's async stages use where it has more than one worker), their runs, the waits
 * for their results and their completions.
 *
 * <p>A ForkJoinTask is the unit of work and the caller's handle on its result (the pool returns the
 * task it was given, and the caller joins it), so it cannot be wrapped: the current request is
 * remembered with the task (ForkJoinTask#fork, ForkJoinPool#execute/submit/invoke) and entered
 * when the task runs (ForkJoinTask#doExec, which every pool, join and invoke runs a task through;
 * JDK 17 to 25). A plain Runnable or Callable handed to the pool is wrapped as for any executor,
 * and told which of the pool's tasks adapts it, whose completion follows its run.
 * A task run inline by the thread that forked it (a join that pops it) is no hop.
 */
public final class ForkJoinInstrumentation implements HopscopeInstrumentation {

    @Override
    public String name() {
        return "forkjoin";
    }

    @Override
    public String requiredClass() {
        return null;
    }

    @Override
    public List<String> preloadedClasses() {
        // The scheduled fork/join task is JDK 25's only.
        return List.of("java.util.concurrent.ForkJoinPool", "java.util.concurrent.ForkJoinTask",
                "java.util.concurrent.ForkJoinTask$AdaptedRunnable", "java.util.concurrent.ForkJoinTask$AdaptedRunnableAction",
                "java.util.concurrent.ForkJoinTask$AdaptedCallable", "java.util.concurrent.ForkJoinTask$AdaptedInterruptibleCallable",
                "java.util.concurrent.ForkJoinTask$AdaptedInterruptibleRunnable",
                "java.util.concurrent.ForkJoinTask$CallableWithTimeout", "java.util.concurrent.ForkJoinTask$RunnableExecuteAction",
                "java.util.concurrent.DelayScheduler$ScheduledForkJoinTask");
    }

    @Override
    public List<String> jdkClasses() {
        return List.of("java.util.concurrent.");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder
                .type(named("java.util.concurrent.ForkJoinPool"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(SubmitTaskAdvice.class).on(namedOneOf("execute", "submit")
                                .and(takesArguments(ForkJoinTask.class))))
                        .visit(Advice.to(SubmitRunnableAdvice.class).on(namedOneOf("execute", "submit")
                                .and(takesArgument(0, Runnable.class))
                                .and(takesArguments(1).or(takesArguments(2)))))
                        .visit(Advice.to(SubmitCallableAdvice.class).on(named("submit")
                                .and(takesArguments(Callable.class))))
                        .visit(Advice.to(InvokeAdvice.class).on(named("invoke")
                                .and(takesArguments(ForkJoinTask.class)))))
                .type(named("java.util.concurrent.ForkJoinTask"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(ForkAdvice.class).on(named("fork").and(takesArguments(0))))
                        .visit(Advice.to(ExecAdvice.class).on(named("doExec").and(takesArguments(0))))
                        .visit(WaitAdvice.of("ForkJoinTask.join").on(named("join").and(takesArguments(0))))
                        .visit(WaitAdvice.of("ForkJoinTask.quietlyJoin").on(named("quietlyJoin").and(takesArguments(0))))
                        .visit(WaitAdvice.of("ForkJoinTask.get").on(named("get")
                                .and(takesArguments(0).or(takesArguments(2)))))
                        // Every completion sets the task's status in one of these (JDK 17 to 25).
                        .visit(Advice.to(CompletionAdvice.class).on(namedOneOf("setDone", "trySetCancelled",
                                "trySetThrown"))))
                // The tasks a pool makes of a wrapped Runnable or Callable complete right after it, out
                // of the request: the wrapper is told which task that is (its first argument).
                .type(nameStartsWith("java.util.concurrent.ForkJoinTask$Adapted")
                        .or(namedOneOf("java.util.concurrent.ForkJoinTask$RunnableExecuteAction",
                                "java.util.concurrent.ForkJoinTask$CallableWithTimeout")))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(BindAdvice.class).on(isConstructor())))
                // JDK 25: ForkJoinPool#schedule* (wrapped as the scheduler's, see the executors
                // instrumentation) make one of these of the task: (delay, nextDelay, isImmediate,
                // runnable, callable, pool).
                .type(named("java.util.concurrent.DelayScheduler$ScheduledForkJoinTask"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(BindScheduledAdvice.class).on(isConstructor().and(takesArguments(6)))));
    }

    /** ForkJoinPool#execute/submit(ForkJoinTask): the task carries the request. */
    static final class SubmitTaskAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object task, @Advice.This Object pool) {
            Bridge.attachTask(task, pool);
        }
    }

    /**
     * ForkJoinPool#execute/submit(Runnable[, result]): a Runnable that is a ForkJoinTask (a
     * CompletableFuture's async stage) carries the request itself; any other is wrapped.
     */
    static final class SubmitRunnableAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.This Object pool) {
            if (task instanceof ForkJoinTask) {
                Bridge.attachTask(task, pool);
            } else {
                task = Bridge.wrapRunnable(task, pool);
            }
        }
    }

    /** ForkJoinPool#submit(Callable): wrapped. */
    static final class SubmitCallableAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Callable<?> task, @Advice.This Object pool) {
            task = Bridge.wrapCallable(task, pool);
        }
    }

    /** A pool's adapter of a Runnable or Callable (its first argument), made before it is queued. */
    static final class BindAdvice {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object task, @Advice.Argument(0) Object adapted) {
            Bridge.bindFuture(adapted, task);
        }
    }

    /** JDK 25's ScheduledForkJoinTask, made of a (wrapped) runnable or callable before it is scheduled. */
    static final class BindScheduledAdvice {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object task, @Advice.Argument(3) Object runnable, @Advice.Argument(4) Object callable) {
            Bridge.bindFuture(runnable != null ? runnable : callable, task);
        }
    }

    /** ForkJoinPool#invoke(task): hands the task over and waits for its result. */
    static final class InvokeAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Argument(0) Object task, @Advice.This Object pool) {
            Bridge.attachTask(task, pool);
            return Bridge.waitEnter("ForkJoinPool.invoke", task);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.waitExit(token, thrown);
        }
    }

    /** ForkJoinTask#fork: to the current worker's queue, or the common pool's from another thread. */
    static final class ForkAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object task) {
            Bridge.attachTask(task, null);
        }
    }

    /** ForkJoinTask#doExec: a task runs; one volatile read when no request has a task pending. */
    static final class ExecAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object task) {
            return Bridge.attachedTaskEnter(task);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }
}
