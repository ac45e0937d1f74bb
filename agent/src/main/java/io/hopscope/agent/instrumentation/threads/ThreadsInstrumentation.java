package io.hopscope.agent.instrumentation.threads;

import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.LibraryRules;
import java.lang.instrument.Instrumentation;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Threads started in a request, virtual or platform: Thread#start (and JDK 21's
 * start(ThreadContainer), through which thread-per-task executors and structured scopes start
 * theirs; VirtualThread overrides both) remembers the request with the thread, and the thread's
 * run (Thread#run, VirtualThread#run(Runnable)) enters it: a handoff whose queue delay is the start
 * call to the first run, and a task segment for the thread's whole run. Only a thread whose run is
 * one task is followed (see Handoffs#attachThread): a virtual thread, or a plain java.lang.Thread
 * whose Runnable is no library's worker loop.
 *
 * <p>A virtual thread's runs on carriers (VirtualThread#runContinuation, on the carrier) and its
 * submissions to its scheduler (VirtualThread#*submitRunContinuation*) are followed while it works
 * on a request: hopscope.Mounts adds them up (see Carriers).
 */
public final class ThreadsInstrumentation implements HopscopeInstrumentation {

    @Override
    public String name() {
        return "threads";
    }

    @Override
    public String requiredClass() {
        return null;
    }

    /** A thread pool's worker loop, started by the pool inside whichever request made it grow. */
    @Override
    public void addRules(LibraryRules rules) {
        rules.addHousekeepingTask("java.util.concurrent.ThreadPoolExecutor$Worker");
        // JDK 21+ in its default poller mode on Linux: the I/O pollers are virtual threads, started
        // lazily by the first blocking socket read of a virtual thread, inside whichever request that is.
        rules.addHousekeepingThread("SubPoller-");
    }

    @Override
    public void register(HopscopeRuntime runtime, Instrumentation instrumentation) {
        ThreadTargets targets = ThreadTargets.open(instrumentation);
        runtime.readThreadTargets(targets);
        if (targets != null) {
            runtime.readCurrentCarrier(targets.carrierOfCurrent());
        }
    }

    @Override
    public List<String> preloadedClasses() {
        return List.of("java.lang.VirtualThread");
    }

    @Override
    public List<String> jdkClasses() {
        return List.of("java.lang.Thread", "java.lang.VirtualThread");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder
                .type(namedOneOf("java.lang.Thread", "java.lang.VirtualThread"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(StartAdvice.class).on(named("start")
                                .and(takesArguments(0).or(takesArguments(1)))))
                        .visit(Advice.to(RunAdvice.class).on(named("run").and(takesArguments(0))))
                        .visit(Advice.to(VirtualRunAdvice.class).on(named("run").and(takesArguments(Runnable.class))))
                        // VirtualThread only: its run(Runnable), its scheduler submissions, its runs on a carrier.
                        .visit(Advice.to(VirtualEndAdvice.class).on(named("run").and(takesArguments(Runnable.class))))
                        .visit(Advice.to(SubmitAdvice.class).on(nameContains("ubmitRunContinuation")))
                        .visit(Advice.to(MountAdvice.class).on(named("runContinuation").and(takesArguments(0)))));
    }

    /** Thread#start: the request, if any, goes with the thread. */
    static final class StartAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Thread thread) {
            Bridge.attachThread(thread);
        }
    }

    /** The thread's run, on the thread itself: one volatile read when no request has a thread pending. */
    static final class RunAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Thread thread) {
            return thread == Thread.currentThread() ? Bridge.attachedTaskEnter(thread) : null;
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }

    /** VirtualThread#run(task), on the virtual thread: enters its request unless the task is housekeeping. */
    static final class VirtualRunAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Thread thread, @Advice.Argument(0) Runnable task) {
            return thread == Thread.currentThread() ? Bridge.attachedVirtualThreadEnter(thread, task) : null;
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }

    /** The virtual thread's run ends (on the thread): it works on no request any more. */
    static final class VirtualEndAdvice {
        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.This Thread thread) {
            Bridge.virtualThreadEnded(thread);
        }
    }

    /** The virtual thread is submitted to its scheduler: its wait to be mounted begins. */
    static final class SubmitAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Thread thread) {
            Bridge.virtualThreadSubmitted(thread);
        }
    }

    /** A carrier runs the virtual thread (mounts it, runs it until it unmounts): on the carrier. */
    static final class MountAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Thread thread) {
            return Bridge.mountEnter(thread);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.This Thread thread) {
            Bridge.mountExit(token, thread);
        }
    }
}
