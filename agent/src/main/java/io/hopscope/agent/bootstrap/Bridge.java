/*
 * Why this package exists: advice is inlined into JDK classes (ThreadPoolExecutor, ForkJoinPool,
 * ForkJoinTask, FutureTask, CompletableFuture, LockSupport, jdk.internal.net.http.HttpClientImpl), which are
 * defined by the bootstrap class loader and cannot see the agent's own classes on the system class
 * path. Everything such advice calls therefore lives here, in the one package the agent extracts
 * into a temporary jar and appends to the bootstrap search path before anything loads it. It holds
 * no logic: a static dispatcher to the runtime (system class loader, where the JFR event classes
 * live) and the guards that keep a fault in the runtime from ever reaching the application.
 */
package io.hopscope.agent.bootstrap;

import java.util.Collection;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/** The static entry points that advice calls; each forwards to the installed {@link Hooks}. */
public final class Bridge {

    /** The runtime, set once the agent is installed; null means "do nothing". */
    public static volatile Hooks hooks;

    /**
     * Number of threads currently registered as blocked in an instrumented wait. LockSupport.unpark
     * is called all the time by every lock in the JVM: this one volatile read is all it costs while
     * no instrumented wait is in progress.
     */
    public static final AtomicInteger WAITERS = new AtomicInteger();

    /**
     * Number of attached tasks (fork/join tasks, threads) handed over in a request and not started
     * yet (an upper bound: a task collected unrun stays counted). Every fork/join task and thread in
     * the JVM checks it when it runs: one volatile read while no request has one pending.
     */
    public static final AtomicInteger PENDING_TASKS = new AtomicInteger();

    /**
     * Number of virtual threads working on a request (see Carriers). Every virtual thread in the
     * JVM checks it when it is submitted to its scheduler and when a carrier runs it: one volatile
     * read while none is.
     */
    public static final AtomicInteger CARRIED = new AtomicInteger();

    private Bridge() {
    }

    public static Runnable wrapRunnable(Runnable task, Object executor) {
        Hooks h = hooks;
        if (h == null || task == null) {
            return task;
        }
        try {
            return h.wrapRunnable(task, executor);
        } catch (Throwable t) {
            h.onError("executors", t);
            return task;
        }
    }

    public static Callable<?> wrapCallable(Callable<?> task, Object executor) {
        Hooks h = hooks;
        if (h == null || task == null) {
            return task;
        }
        try {
            return h.wrapCallable(task, executor);
        } catch (Throwable t) {
            h.onError("executors", t);
            return task;
        }
    }

    /** invokeAll/invokeAny's tasks, each carrying the current request (a new collection), if any. */
    public static Collection<?> wrapCallables(Collection<?> tasks, Object executor) {
        Hooks h = hooks;
        if (h == null || tasks == null) {
            return tasks;
        }
        try {
            return h.wrapCallables(tasks, executor);
        } catch (Throwable t) {
            h.onError("executors", t);
            return tasks;
        }
    }

    /**
     * Remembers the current request, if any, with a task that is itself the unit of work and the
     * caller's handle on its result, so it cannot be wrapped (a ForkJoinTask), handed to {@code via}.
     * The task's run enters it with attachedTaskEnter.
     */
    public static void attachTask(Object task, Object via) {
        Hooks h = hooks;
        if (h == null || task == null) {
            return;
        }
        try {
            h.attachTask(task, via);
        } catch (Throwable t) {
            h.onError("executors", t);
        }
    }

    /** A thread is started: the request, if any, goes with it when its run is one task (see attachTask). */
    public static void attachThread(Thread thread) {
        Hooks h = hooks;
        if (h == null) {
            return;
        }
        try {
            h.attachThread(thread);
        } catch (Throwable t) {
            h.onError("threads", t);
        }
    }

    /** A virtual thread's run(task) begins: like attachedTaskEnter, unless its task is a library's housekeeping. */
    public static Object attachedVirtualThreadEnter(Thread thread, Runnable task) {
        if (PENDING_TASKS.get() == 0) {
            return null;
        }
        Hooks h = hooks;
        if (h == null) {
            return null;
        }
        try {
            return h.attachedVirtualThreadEnter(thread, task);
        } catch (Throwable t) {
            h.onError("threads", t);
            return null;
        }
    }

    /** A virtual thread is submitted to its scheduler (VirtualThread#*submitRunContinuation*). */
    public static void virtualThreadSubmitted(Thread thread) {
        if (CARRIED.get() == 0) {
            return;
        }
        Hooks h = hooks;
        if (h == null) {
            return;
        }
        try {
            h.virtualThreadSubmitted(thread);
        } catch (Throwable t) {
            h.onError("threads", t);
        }
    }

    /** A carrier starts running a virtual thread (VirtualThread#runContinuation); the token goes to mountExit. */
    public static Object mountEnter(Thread thread) {
        if (CARRIED.get() == 0) {
            return null;
        }
        Hooks h = hooks;
        if (h == null) {
            return null;
        }
        try {
            return h.mountEnter(thread);
        } catch (Throwable t) {
            h.onError("threads", t);
            return null;
        }
    }

    /** The carrier is done running the virtual thread; token is mountEnter's (null: it was not carried then). */
    public static void mountExit(Object token, Thread thread) {
        if (token == null && CARRIED.get() == 0) {
            return;
        }
        Hooks h = hooks;
        if (h == null) {
            return;
        }
        try {
            h.mountExit(token, thread);
        } catch (Throwable t) {
            h.onError("threads", t);
        }
    }

    /** A virtual thread's run ends, on the thread itself. */
    public static void virtualThreadEnded(Thread thread) {
        if (CARRIED.get() == 0) {
            return;
        }
        Hooks h = hooks;
        if (h == null) {
            return;
        }
        try {
            h.virtualThreadEnded(thread);
        } catch (Throwable t) {
            h.onError("threads", t);
        }
    }

    /** Enters the request attachTask remembered with task, if any; the token goes to contextExit. */
    public static Object attachedTaskEnter(Object task) {
        if (PENDING_TASKS.get() == 0) {
            return null;
        }
        Hooks h = hooks;
        if (h == null) {
            return null;
        }
        try {
            return h.attachedTaskEnter(task);
        } catch (Throwable t) {
            h.onError("executors", t);
            return null;
        }
    }

    /**
     * Wraps a task handed to a scheduler, due {@code delayNanos} after now and then every
     * {@code periodNanos} (0: once; negative: that long after each run ends, a fixed delay).
     */
    public static Runnable wrapScheduled(Runnable task, Object executor, long delayNanos, long periodNanos) {
        Hooks h = hooks;
        if (h == null || task == null) {
            return task;
        }
        try {
            return h.wrapScheduled(task, executor, delayNanos, periodNanos);
        } catch (Throwable t) {
            h.onError("executors", t);
            return task;
        }
    }

    public static Callable<?> wrapScheduledCallable(Callable<?> task, Object executor, long delayNanos) {
        Hooks h = hooks;
        if (h == null || task == null) {
            return task;
        }
        try {
            return h.wrapScheduledCallable(task, executor, delayNanos);
        } catch (Throwable t) {
            h.onError("executors", t);
            return task;
        }
    }

    /**
     * {@code future} runs {@code task} (a wrapped one, or any other: then nothing is done) and is
     * completed right after it: the task's run tells who completed it, before it is visible as done.
     */
    public static void bindFuture(Object task, Object future) {
        Hooks h = hooks;
        if (h == null || task == null) {
            return;
        }
        try {
            h.bindFuture(task, future);
        } catch (Throwable t) {
            h.onError("executors", t);
        }
    }

    /** Captures the current request (or null) for work that a library hands over without a task. */
    public static Object captureContext(Object via) {
        Hooks h = hooks;
        if (h == null) {
            return null;
        }
        try {
            return h.captureContext(via);
        } catch (Throwable t) {
            h.onError("context", t);
            return null;
        }
    }

    public static Object contextEnter(Object captured) {
        Hooks h = hooks;
        if (h == null || captured == null) {
            return null;
        }
        try {
            return h.contextEnter(captured);
        } catch (Throwable t) {
            h.onError("context", t);
            return null;
        }
    }

    public static void contextExit(Object token) {
        Hooks h = hooks;
        if (h == null || token == null) {
            return;
        }
        try {
            h.contextExit(token);
        } catch (Throwable t) {
            h.onError("context", t);
        }
    }

    /**
     * Captures the current request (or null) for work a library will do when some I/O is ready
     * (the response to a write), on whichever thread handles that I/O: entered with ioContextEnter.
     */
    public static Object captureIoContext(Object via) {
        Hooks h = hooks;
        if (h == null) {
            return null;
        }
        try {
            return h.captureIoContext(via);
        } catch (Throwable t) {
            h.onError("context", t);
            return null;
        }
    }

    /**
     * Enters a captureIoContext capture, unless its request has ended or this thread is already in
     * a request; the token goes to contextExit.
     */
    public static Object ioContextEnter(Object captured) {
        Hooks h = hooks;
        if (h == null || captured == null) {
            return null;
        }
        try {
            return h.ioContextEnter(captured);
        } catch (Throwable t) {
            h.onError("context", t);
            return null;
        }
    }

    /**
     * Remembers the current request for work a library will later do for {@code key} on a thread of
     * its own, without a task (the JDK HttpClient's selector handling a socket's event). With
     * replace, what key held is replaced (or forgotten when no request is current); without, the
     * request is remembered only where key holds no request still in flight.
     */
    public static void attachContext(Object key, boolean replace) {
        Hooks h = hooks;
        if (h == null || key == null) {
            return;
        }
        try {
            h.attachContext(key, replace);
        } catch (Throwable t) {
            h.onError("context", t);
        }
    }

    /** Enters the request attachContext remembered for key, if any; the token goes to contextExit. */
    public static Object attachedContextEnter(Object key) {
        Hooks h = hooks;
        if (h == null || key == null) {
            return null;
        }
        try {
            return h.attachedContextEnter(key);
        } catch (Throwable t) {
            h.onError("context", t);
            return null;
        }
    }

    public static Object boundaryEnter(String boundary, Object request) {
        Hooks h = hooks;
        if (h == null) {
            return null;
        }
        try {
            return h.boundaryEnter(boundary, request);
        } catch (Throwable t) {
            h.onError("boundaries", t);
            return null;
        }
    }

    public static Object boundaryExit(Object token, Object result, Throwable thrown) {
        Hooks h = hooks;
        if (h == null || token == null) {
            return result;
        }
        try {
            return h.boundaryExit(token, result, thrown);
        } catch (Throwable t) {
            h.onError("boundaries", t);
            return result;
        }
    }

    /** For a boundary that takes a callback: the callback that ends the request when called. */
    public static Object wrapCallback(Object token, Object callback) {
        Hooks h = hooks;
        if (h == null || token == null || callback == null) {
            return callback;
        }
        try {
            return h.wrapCallback(token, callback);
        } catch (Throwable t) {
            h.onError("boundaries", t);
            return callback;
        }
    }

    public static Object spanEnter(String kind, Object self, boolean async) {
        Hooks h = hooks;
        if (h == null) {
            return null;
        }
        try {
            return h.spanEnter(kind, self, async);
        } catch (Throwable t) {
            h.onError("spans", t);
            return null;
        }
    }

    public static Object spanExit(Object token, Object result, Throwable thrown) {
        Hooks h = hooks;
        if (h == null || token == null) {
            return result;
        }
        try {
            return h.spanExit(token, result, thrown);
        } catch (Throwable t) {
            h.onError("spans", t);
            return result;
        }
    }

    public static Object joinEnter(Object waitedOn) {
        Hooks h = hooks;
        if (h == null) {
            return null;
        }
        try {
            return h.joinEnter(waitedOn);
        } catch (Throwable t) {
            h.onError("waits", t);
            return null;
        }
    }

    public static void joinExit(Object token) {
        Hooks h = hooks;
        if (h == null || token == null) {
            return;
        }
        try {
            h.joinExit(token);
        } catch (Throwable t) {
            h.onError("waits", t);
        }
    }

    public static Object waitEnter(String kind, Object waitedOn) {
        Hooks h = hooks;
        if (h == null) {
            return null;
        }
        try {
            return h.waitEnter(kind, waitedOn);
        } catch (Throwable t) {
            h.onError("waits", t);
            return null;
        }
    }

    public static void waitExit(Object token, Throwable thrown) {
        Hooks h = hooks;
        if (h == null || token == null) {
            return;
        }
        try {
            h.waitExit(token, thrown);
        } catch (Throwable t) {
            h.onError("waits", t);
        }
    }

    /** A result (a future, a blocking subscriber) is about to be completed on this thread. */
    public static void onComplete(Object result) {
        Hooks h = hooks;
        if (h == null) {
            return;
        }
        try {
            h.onComplete(result);
        } catch (Throwable t) {
            h.onError("waits", t);
        }
    }

    public static void onUnpark(Thread thread) {
        if (WAITERS.get() == 0 || thread == null) {
            return;
        }
        Hooks h = hooks;
        if (h == null) {
            return;
        }
        try {
            h.onUnpark(thread);
        } catch (Throwable t) {
            h.onError("waits", t);
        }
    }

    /**
     * LockSupport#park* entered, {@code blocker} its argument (null for park() and parkNanos(long)).
     * Every park in the JVM comes here: outside a request it costs a volatile read, an interface
     * call and one ThreadLocal lookup, and allocates nothing. The token (null: nothing to do) goes
     * to parkExit.
     */
    public static Object parkEnter(Object blocker) {
        Hooks h = hooks;
        if (h == null) {
            return null;
        }
        try {
            return h.parkEnter(blocker);
        } catch (Throwable t) {
            h.onError("parks", t);
            return null;
        }
    }

    public static void parkExit(Object token) {
        Hooks h = hooks;
        if (h == null || token == null) {
            return;
        }
        try {
            h.parkExit(token);
        } catch (Throwable t) {
            h.onError("parks", t);
        }
    }
}
