package io.hopscope.agent.bootstrap;

import java.util.Collection;
import java.util.concurrent.Callable;

/**
 * What advice inlined anywhere (JDK classes included) may ask of the agent's runtime: each hook is
 * declared here once, and its {@link Hook} annotation is all the build needs to generate the static
 * forwarder in {@code Bridge} that advice calls (see Hook for what that forwarder does).
 */
public interface Hooks {

    // ---------------------------------------------------------------- executors and threads

    @Hook(instrumentation = "executors", orElse = "task", skipWhen = "task == null")
    Runnable wrapRunnable(Runnable task, Object executor);

    @Hook(instrumentation = "executors", orElse = "task", skipWhen = "task == null")
    Callable<?> wrapCallable(Callable<?> task, Object executor);

    /** invokeAll/invokeAny's tasks, each carrying the current request (a new collection), if any. */
    @Hook(instrumentation = "executors", orElse = "tasks", skipWhen = "tasks == null")
    Collection<?> wrapCallables(Collection<?> tasks, Object executor);

    /**
     * Remembers the current request, if any, with a task that is itself the unit of work and the
     * caller's handle on its result, so it cannot be wrapped (a ForkJoinTask), handed to {@code via}.
     * The task's run enters it with attachedTaskEnter.
     */
    @Hook(instrumentation = "executors", skipWhen = "task == null")
    void attachTask(Object task, Object via);

    /** A thread is started: the request, if any, goes with it when its run is one task (see attachTask). */
    @Hook(instrumentation = "threads")
    void attachThread(Thread thread);

    /** Enters the request attachTask remembered with task, if any; the token goes to contextExit. */
    @Hook(instrumentation = "executors", skipWhen = "PENDING_TASKS.get() == 0")
    Object attachedTaskEnter(Object task);

    /** A virtual thread's run(task) begins: like attachedTaskEnter, unless its task is a library's housekeeping. */
    @Hook(instrumentation = "threads", skipWhen = "PENDING_TASKS.get() == 0")
    Object attachedVirtualThreadEnter(Thread thread, Runnable task);

    /** A virtual thread is submitted to its scheduler (VirtualThread#*submitRunContinuation*). */
    @Hook(instrumentation = "threads", skipWhen = "CARRIED.get() == 0")
    void virtualThreadSubmitted(Thread thread);

    /** A carrier starts running a virtual thread (VirtualThread#runContinuation); the token goes to mountExit. */
    @Hook(instrumentation = "threads", skipWhen = "CARRIED.get() == 0")
    Object mountEnter(Thread thread);

    /** The carrier is done running the virtual thread; token is mountEnter's (null: it was not carried then). */
    @Hook(instrumentation = "threads", skipWhen = "token == null && CARRIED.get() == 0")
    void mountExit(Object token, Thread thread);

    /** A virtual thread's run ends, on the thread itself. */
    @Hook(instrumentation = "threads", skipWhen = "CARRIED.get() == 0")
    void virtualThreadEnded(Thread thread);

    /**
     * Wraps a task handed to a scheduler, due {@code delayNanos} after now and then every
     * {@code periodNanos} (0: once; negative: that long after each run ends, a fixed delay).
     */
    @Hook(instrumentation = "executors", orElse = "task", skipWhen = "task == null")
    Runnable wrapScheduled(Runnable task, Object executor, long delayNanos, long periodNanos);

    @Hook(instrumentation = "executors", orElse = "task", skipWhen = "task == null")
    Callable<?> wrapScheduledCallable(Callable<?> task, Object executor, long delayNanos);

    /**
     * {@code future} runs {@code task} (a wrapped one, or any other: then nothing is done) and is
     * completed right after it: the task's run tells who completed it, before it is visible as done.
     */
    @Hook(instrumentation = "executors", skipWhen = "task == null")
    void bindFuture(Object task, Object future);

    // ---------------------------------------------------------------- context handed over without a task

    /** Captures the current request (or null) for work that a library hands over without a task. */
    @Hook(instrumentation = "context")
    Object captureContext(Object via);

    @Hook(instrumentation = "context", skipWhen = "captured == null")
    Object contextEnter(Object captured);

    @Hook(instrumentation = "context", skipWhen = "token == null")
    void contextExit(Object token);

    /**
     * Captures the current request (or null) for work a library will do when some I/O is ready
     * (the response to a write), on whichever thread handles that I/O: entered with ioContextEnter.
     */
    @Hook(instrumentation = "context")
    Object captureIoContext(Object via);

    /**
     * Enters a captureIoContext capture, unless its request has ended or this thread is already in
     * a request; the token goes to contextExit.
     */
    @Hook(instrumentation = "context", skipWhen = "captured == null")
    Object ioContextEnter(Object captured);

    /**
     * Remembers the current request for work a library will later do for {@code key} on a thread of
     * its own, without a task (the JDK HttpClient's selector handling a socket's event). With
     * replace, what key held is replaced (or forgotten when no request is current); without, the
     * request is remembered only where key holds no request still in flight.
     */
    @Hook(instrumentation = "context", skipWhen = "key == null")
    void attachContext(Object key, boolean replace);

    /** Enters the request attachContext remembered for key, if any; the token goes to contextExit. */
    @Hook(instrumentation = "context", skipWhen = "key == null")
    Object attachedContextEnter(Object key);

    // ---------------------------------------------------------------- requests and spans

    @Hook(instrumentation = "boundaries")
    Object boundaryEnter(String boundary, Object request);

    @Hook(instrumentation = "boundaries", orElse = "result", skipWhen = "token == null")
    Object boundaryExit(Object token, Object result, Throwable thrown);

    /** For a boundary that takes a callback: the callback that ends the request when called. */
    @Hook(instrumentation = "boundaries", orElse = "callback", skipWhen = "token == null || callback == null")
    Object wrapCallback(Object token, Object callback);

    @Hook(instrumentation = "spans")
    Object spanEnter(String kind, Object self, boolean async);

    @Hook(instrumentation = "spans", orElse = "result", skipWhen = "token == null")
    Object spanExit(Object token, Object result, Throwable thrown);

    // ---------------------------------------------------------------- waits

    /** Mono#block entered: a block on a request's own Mono joins that request; the token goes to monoBlockExit. */
    @Hook(instrumentation = "waits")
    Object monoBlockEnter(Object mono);

    @Hook(instrumentation = "waits", skipWhen = "token == null")
    void monoBlockExit(Object token);

    @Hook(instrumentation = "waits")
    Object waitEnter(String kind, Object waitedOn);

    @Hook(instrumentation = "waits", skipWhen = "token == null")
    void waitExit(Object token, Throwable thrown);

    @Hook(instrumentation = "waits", skipWhen = "WAITERS.get() == 0 || thread == null")
    void onUnpark(Thread thread);

    /**
     * LockSupport#park* entered, {@code blocker} its argument (null for park() and parkNanos(long)).
     * Every park in the JVM comes here: outside a request it costs a volatile read, an interface
     * call and one ThreadLocal lookup, and allocates nothing. The token (null: nothing to do) goes
     * to parkExit.
     */
    @Hook(instrumentation = "parks")
    Object parkEnter(Object blocker);

    @Hook(instrumentation = "parks", skipWhen = "token == null")
    void parkExit(Object token);

    /** A result (a future, a blocking subscriber) is about to be completed on this thread. */
    @Hook(instrumentation = "waits")
    void onComplete(Object result);

    // ---------------------------------------------------------------- not a hook: where the Bridge reports a failure

    void onError(String instrumentation, Throwable error);
}
