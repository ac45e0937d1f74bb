package io.hopscope.agent.instrumentation.executors;

import static net.bytebuddy.matcher.ElementMatchers.declaresMethod;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.Matchers;
import java.util.Collection;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Carries the current request with tasks handed to any {@link java.util.concurrent.Executor} that
 * is not the JDK's (whose pools have their own rules: executors, forkjoin, threads): its execute,
 * and an ExecutorService's submit, invokeAll and invokeAny and a ScheduledExecutorService's
 * schedule*, wherever the class declares them. A task is wrapped once (a wrapped task passed on is
 * not wrapped again, and a task run inside another from the same thread adds no hop: see
 * Handoffs#taskStart), so a task through a chain of executors is one hop from its first submitter
 * to the thread that runs it; run inline on the submitting thread, or later by it, it is no hop.
 *
 * <p>Every class loaded is matched: the name exclusions (one string test each) come first, then
 * whether the class itself declares one of these methods with a body (its own methods, already
 * parsed), and only then its type hierarchy.
 */
public final class AnyExecutorInstrumentation implements HopscopeInstrumentation {

    /**
     * The executors not followed, in one place: the JDK's (its pools by their own rules, and its
     * housekeeping: JFR's, RMI's and JMX's threads, the cleaner, the HTTP client's selector, by
     * their own rule too), the agent's own (ignored for every rule), and Netty's (its event loops by
     * the netty rule; its thread-per-task executors start each event loop's thread, a loop that
     * would otherwise belong to whichever request started it), relocated copies included.
     */
    static final ElementMatcher.Junction<TypeDescription> EXCLUDED = nameStartsWith("java.")
            .or(nameStartsWith("javax."))
            .or(nameStartsWith("jdk."))
            .or(nameStartsWith("sun."))
            .or(nameStartsWith("com.sun."))
            .or(nameContains("io.netty."));

    private static final ElementMatcher.Junction<MethodDescription> RUNNABLE_EXECUTE =
            named("execute").and(takesArguments(Runnable.class));
    private static final ElementMatcher.Junction<MethodDescription> SUBMIT_RUNNABLE =
            named("submit").and(takesArgument(0, Runnable.class)).and(takesArguments(1).or(takesArguments(2)));
    private static final ElementMatcher.Junction<MethodDescription> SUBMIT_CALLABLE =
            named("submit").and(takesArguments(Callable.class));
    private static final ElementMatcher.Junction<MethodDescription> INVOKE =
            namedOneOf("invokeAll", "invokeAny").and(takesArgument(0, Collection.class));

    @Override
    public String name() {
        return "any-executor";
    }

    @Override
    public String requiredClass() {
        return null;
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        ElementMatcher.Junction<MethodDescription> handOver = RUNNABLE_EXECUTE.or(SUBMIT_RUNNABLE).or(SUBMIT_CALLABLE)
                .or(INVOKE).or(namedOneOf("schedule", "scheduleAtFixedRate", "scheduleWithFixedDelay"));
        return builder
                .type(not(EXCLUDED).and(not(isInterface())).and(declaresMethod(handOver.and(not(isAbstract()))))
                        .and(Matchers.hasSuperTypeNamed("java.util.concurrent.Executor")))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(ExecutorsInstrumentation.RunnableAdvice.class).on(RUNNABLE_EXECUTE))
                        .visit(Advice.to(SubmitRunnableAdvice.class).on(SUBMIT_RUNNABLE))
                        .visit(Advice.to(SubmitCallableAdvice.class).on(SUBMIT_CALLABLE))
                        .visit(Advice.to(InvokeAdvice.class).on(INVOKE))
                        .visit(Advice.to(ExecutorsInstrumentation.ScheduleAdvice.class).on(named("schedule")
                                .and(takesArguments(Runnable.class, long.class, TimeUnit.class))))
                        .visit(Advice.to(ExecutorsInstrumentation.ScheduleCallableAdvice.class).on(named("schedule")
                                .and(takesArguments(Callable.class, long.class, TimeUnit.class))))
                        .visit(Advice.to(ExecutorsInstrumentation.FixedRateAdvice.class).on(named("scheduleAtFixedRate")
                                .and(takesArguments(Runnable.class, long.class, long.class, TimeUnit.class))))
                        .visit(Advice.to(ExecutorsInstrumentation.FixedDelayAdvice.class).on(named("scheduleWithFixedDelay")
                                .and(takesArguments(Runnable.class, long.class, long.class, TimeUnit.class)))));
    }

    /** submit(Runnable[, result]). */
    static final class SubmitRunnableAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.This Object executor) {
            task = Bridge.wrapRunnable(task, executor);
        }
    }

    /** submit(Callable). */
    static final class SubmitCallableAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Callable<?> task, @Advice.This Object executor) {
            task = Bridge.wrapCallable(task, executor);
        }
    }

    /** invokeAll/invokeAny(tasks[, timeout, unit]): each task wrapped, in a new collection. */
    static final class InvokeAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Collection<?> tasks,
                @Advice.This Object executor) {
            tasks = Bridge.wrapCallables(tasks, executor);
        }
    }
}
