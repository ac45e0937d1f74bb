package io.hopscope.agent.bootstrap;

import java.util.Collection;
import java.util.concurrent.Callable;

/**
 * Hooks of the request's hand-overs from thread to thread (runtime's Handoffs): tasks handed to
 * executors and schedulers, threads started, and work a library hands over without a task.
 * Each hook is declared once; see {@link Hook} for the Bridge forwarder the build generates from it.
 */
public interface HandoffHooks {

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

    /**
     * A task one of the wrap hooks wrapped (or a server's hand-over wrapped) begins its run on this
     * thread: called by the wrapper itself, not by advice, through the Bridge all the same, so that
     * what stands behind it (the tests' fault and chaos proxies) sees a task start as it sees an
     * attached one's. The token goes to contextExit.
     */
    @Hook(instrumentation = "executors")
    Object wrappedTaskEnter(Object task);

    /** A virtual thread's run(task) begins: like attachedTaskEnter, unless its task is a library's housekeeping. */
    @Hook(instrumentation = "threads", skipWhen = "PENDING_TASKS.get() == 0")
    Object attachedVirtualThreadEnter(Thread thread, Runnable task);

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

    /**
     * Enters the request attachContext remembered for key, if it is still in flight, whatever request
     * this thread is working on (that one is put aside until contextExit): a library thread that
     * serves many requests' objects in one task (gRPC's transport, which may deliver one call's
     * messages while it flushes another call's writes). No hop where the thread is the one that
     * attached it. The token goes to contextExit.
     */
    @Hook(instrumentation = "context", skipWhen = "key == null")
    Object attachedContextSwitch(Object key);
}
