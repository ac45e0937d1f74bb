package io.hopscope.agent.instrumentation.executors;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.runtime.LibraryRules;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Carries the current request with tasks handed to the JDK's executors: ThreadPoolExecutor#execute
 * (which submit goes through), ScheduledThreadPoolExecutor's schedule* (which its execute and
 * submit go through), whose delay is counted apart from the queue delay, the thread per task that
 * CompletableFuture's async stages use on JDK 17 when the common pool has a single worker, and the
 * thread per task executors of JDK 21+ ({@code Executors.newVirtualThreadPerTaskExecutor} and
 * {@code newThreadPerTaskExecutor}): in a request, the virtual thread it starts carries the request
 * already (threads: one hop, the start's); outside one, a server's hand-over to it (Jetty's selector
 * handing a request to a virtual thread) is the request's server queue.
 * ForkJoinPool's other hand-overs are in the forkjoin instrumentation.
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

    /**
     * A virtual thread's own tasks (its continuation, handed to its scheduler's execute, and its
     * timed park's timeout, to a scheduler): mounting a virtual thread is no hand-over of the
     * request it runs, whose thread is the virtual thread itself. The scheduler itself too: the
     * OpenTelemetry agent wraps the continuation in its context wrapper when a span is current
     * (JDK 25, a virtual thread unparked by a request's thread), which hides the task's class.
     */
    @Override
    public void addRules(LibraryRules rules) {
        rules.addHousekeepingTask("java.lang.VirtualThread");
        rules.addHousekeepingExecutor(ExecutorsInstrumentation::isVirtualThreadScheduler);
    }

    /**
     * The virtual threads' default scheduler (JDK 21+): a ForkJoinPool whose carrier factory is a
     * lambda of java.lang.VirtualThread (VirtualThread#createDefaultScheduler), which no other pool has.
     */
    static boolean isVirtualThreadScheduler(Object executor) {
        return executor instanceof ForkJoinPool
                && ((ForkJoinPool) executor).getFactory().getClass().getName().startsWith("java.lang.VirtualThread");
    }

    @Override
    public List<String> preloadedClasses() {
        // CompletableFuture's thread per task executor is JDK 17's only; the public one, JDK 21+'s.
        return List.of("java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.CompletableFuture$ThreadPerTaskExecutor",
                "java.util.concurrent.ThreadPerTaskExecutor", "java.util.concurrent.ScheduledThreadPoolExecutor",
                "java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask");
    }

    @Override
    public List<String> jdkClasses() {
        return List.of("java.util.concurrent.");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder
                .type(namedOneOf("java.util.concurrent.ThreadPoolExecutor",
                        "java.util.concurrent.CompletableFuture$ThreadPerTaskExecutor",
                        "java.util.concurrent.ThreadPerTaskExecutor"))
                .transform((b, type, loader, module, domain) -> b.visit(Advice.to(RunnableAdvice.class)
                        .on(named("execute").and(takesArguments(Runnable.class)))))
                // Its execute and submit go through schedule; each wraps its task, due after its delay.
                // JDK 25's ForkJoinPool has the same schedule* (its tasks bound in forkjoin).
                .type(namedOneOf("java.util.concurrent.ScheduledThreadPoolExecutor", "java.util.concurrent.ForkJoinPool"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(ScheduleAdvice.class).on(named("schedule")
                                .and(takesArguments(Runnable.class, long.class, TimeUnit.class))))
                        .visit(Advice.to(ScheduleCallableAdvice.class).on(named("schedule")
                                .and(takesArguments(Callable.class, long.class, TimeUnit.class))))
                        .visit(Advice.to(FixedRateAdvice.class).on(named("scheduleAtFixedRate")
                                .and(takesArguments(Runnable.class, long.class, long.class, TimeUnit.class))))
                        .visit(Advice.to(FixedDelayAdvice.class).on(named("scheduleWithFixedDelay")
                                .and(takesArguments(Runnable.class, long.class, long.class, TimeUnit.class)))))
                // The future made of a wrapped task completes right after it, out of the request: the
                // wrapper is told which future that is (an inner class: its executor comes first).
                .type(named("java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(BindAdvice.class).on(isConstructor().and(takesArgument(1, Runnable.class)
                                .or(takesArgument(1, Callable.class))))));
    }

    /** Wraps the Runnable argument when a request is current. */
    public static final class RunnableAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.This Object executor) {
            task = Bridge.wrapRunnable(task, executor);
        }
    }

    /** schedule(Runnable, delay, unit): due after the delay. */
    static final class ScheduleAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.Argument(1) long delay,
                @Advice.Argument(2) TimeUnit unit, @Advice.This Object executor) {
            task = Bridge.wrapScheduled(task, executor, unit == null ? 0 : unit.toNanos(delay), 0);
        }
    }

    /** schedule(Callable, delay, unit). */
    static final class ScheduleCallableAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Callable<?> task, @Advice.Argument(1) long delay,
                @Advice.Argument(2) TimeUnit unit, @Advice.This Object executor) {
            task = Bridge.wrapScheduledCallable(task, executor, unit == null ? 0 : unit.toNanos(delay));
        }
    }

    /** scheduleAtFixedRate(Runnable, initialDelay, period, unit): each run one period after the last was due. */
    static final class FixedRateAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.Argument(1) long initialDelay,
                @Advice.Argument(2) long period, @Advice.Argument(3) TimeUnit unit, @Advice.This Object executor) {
            if (unit != null && period > 0) {
                task = Bridge.wrapScheduled(task, executor, unit.toNanos(initialDelay), unit.toNanos(period));
            }
        }
    }

    /** scheduleWithFixedDelay(Runnable, initialDelay, delay, unit): each run that long after the last ended. */
    static final class FixedDelayAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.Argument(1) long initialDelay,
                @Advice.Argument(2) long delay, @Advice.Argument(3) TimeUnit unit, @Advice.This Object executor) {
            if (unit != null && delay > 0) {
                task = Bridge.wrapScheduled(task, executor, unit.toNanos(initialDelay), -unit.toNanos(delay));
            }
        }
    }

    /** ScheduledFutureTask's constructors, (executor, runnable or callable, ...): binds a wrapped task to it. */
    static final class BindAdvice {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object future, @Advice.Argument(1) Object task) {
            Bridge.bindFuture(task, future);
        }
    }
}
