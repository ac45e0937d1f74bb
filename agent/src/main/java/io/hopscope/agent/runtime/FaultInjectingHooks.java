package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.Hooks;
import java.util.Collection;
import java.util.concurrent.Callable;

/**
 * For tests only (-Dhopscope.test.faults=all|after, read once at install): installed in place of
 * the runtime, every hook throws, so that a test can check that the Bridge keeps each failure away
 * from the application and reports it. With {@code all} the hook throws at once; with
 * {@code after} it throws once the runtime has done its work, so that the runtime's wrappers and
 * half-done states (a request entered whose token is lost) are exercised too. onError reaches the
 * runtime, to count and report.
 */
public final class FaultInjectingHooks implements Hooks {

    /** The system property that turns it on; not an agent option, so no user turns it on by mistake. */
    public static final String PROPERTY = "hopscope.test.faults";

    private final Hooks runtime;
    private final boolean after;

    private FaultInjectingHooks(Hooks runtime, boolean after) {
        this.runtime = runtime;
        this.after = after;
    }

    /** The hooks the property asks for around {@code runtime}, or null (absent or any other value). */
    public static Hooks requested(Hooks runtime) {
        String mode = System.getProperty(PROPERTY);
        if ("all".equals(mode)) {
            return new FaultInjectingHooks(runtime, false);
        } else if ("after".equals(mode)) {
            return new FaultInjectingHooks(runtime, true);
        }
        return null;
    }

    private static RuntimeException fault(String hook) {
        return new IllegalStateException("hopscope.test.faults: injected fault in " + hook);
    }

    @Override
    public Runnable wrapRunnable(Runnable task, Object executor) {
        if (after) {
            runtime.wrapRunnable(task, executor);
        }
        throw fault("wrapRunnable");
    }

    @Override
    public Callable<?> wrapCallable(Callable<?> task, Object executor) {
        if (after) {
            runtime.wrapCallable(task, executor);
        }
        throw fault("wrapCallable");
    }

    @Override
    public Collection<?> wrapCallables(Collection<?> tasks, Object executor) {
        if (after) {
            runtime.wrapCallables(tasks, executor);
        }
        throw fault("wrapCallables");
    }

    @Override
    public void attachTask(Object task, Object via) {
        if (after) {
            runtime.attachTask(task, via);
        }
        throw fault("attachTask");
    }

    @Override
    public void attachThread(Thread thread) {
        if (after) {
            runtime.attachThread(thread);
        }
        throw fault("attachThread");
    }

    @Override
    public Object attachedTaskEnter(Object task) {
        if (after) {
            runtime.attachedTaskEnter(task);
        }
        throw fault("attachedTaskEnter");
    }

    @Override
    public Object attachedVirtualThreadEnter(Thread thread, Runnable task) {
        if (after) {
            runtime.attachedVirtualThreadEnter(thread, task);
        }
        throw fault("attachedVirtualThreadEnter");
    }

    @Override
    public void virtualThreadSubmitted(Thread thread) {
        if (after) {
            runtime.virtualThreadSubmitted(thread);
        }
        throw fault("virtualThreadSubmitted");
    }

    @Override
    public Object mountEnter(Thread thread) {
        if (after) {
            runtime.mountEnter(thread);
        }
        throw fault("mountEnter");
    }

    @Override
    public void mountExit(Object token, Thread thread) {
        if (after) {
            runtime.mountExit(token, thread);
        }
        throw fault("mountExit");
    }

    @Override
    public void virtualThreadEnded(Thread thread) {
        if (after) {
            runtime.virtualThreadEnded(thread);
        }
        throw fault("virtualThreadEnded");
    }

    @Override
    public Runnable wrapScheduled(Runnable task, Object executor, long delayNanos, long periodNanos) {
        if (after) {
            runtime.wrapScheduled(task, executor, delayNanos, periodNanos);
        }
        throw fault("wrapScheduled");
    }

    @Override
    public Callable<?> wrapScheduledCallable(Callable<?> task, Object executor, long delayNanos) {
        if (after) {
            runtime.wrapScheduledCallable(task, executor, delayNanos);
        }
        throw fault("wrapScheduledCallable");
    }

    @Override
    public void bindFuture(Object task, Object future) {
        if (after) {
            runtime.bindFuture(task, future);
        }
        throw fault("bindFuture");
    }

    @Override
    public Object captureContext(Object via) {
        if (after) {
            runtime.captureContext(via);
        }
        throw fault("captureContext");
    }

    @Override
    public Object contextEnter(Object captured) {
        if (after) {
            runtime.contextEnter(captured);
        }
        throw fault("contextEnter");
    }

    @Override
    public void contextExit(Object token) {
        if (after) {
            runtime.contextExit(token);
        }
        throw fault("contextExit");
    }

    @Override
    public Object captureIoContext(Object via) {
        if (after) {
            runtime.captureIoContext(via);
        }
        throw fault("captureIoContext");
    }

    @Override
    public Object ioContextEnter(Object captured) {
        if (after) {
            runtime.ioContextEnter(captured);
        }
        throw fault("ioContextEnter");
    }

    @Override
    public void attachContext(Object key, boolean replace) {
        if (after) {
            runtime.attachContext(key, replace);
        }
        throw fault("attachContext");
    }

    @Override
    public Object attachedContextEnter(Object key) {
        if (after) {
            runtime.attachedContextEnter(key);
        }
        throw fault("attachedContextEnter");
    }

    @Override
    public Object boundaryEnter(String boundary, Object request) {
        if (after) {
            runtime.boundaryEnter(boundary, request);
        }
        throw fault("boundaryEnter");
    }

    @Override
    public Object boundaryExit(Object token, Object result, Throwable thrown) {
        if (after) {
            runtime.boundaryExit(token, result, thrown);
        }
        throw fault("boundaryExit");
    }

    @Override
    public Object wrapCallback(Object token, Object callback) {
        if (after) {
            runtime.wrapCallback(token, callback);
        }
        throw fault("wrapCallback");
    }

    @Override
    public Object spanEnter(String kind, Object self, boolean async) {
        if (after) {
            runtime.spanEnter(kind, self, async);
        }
        throw fault("spanEnter");
    }

    @Override
    public Object spanExit(Object token, Object result, Throwable thrown) {
        if (after) {
            runtime.spanExit(token, result, thrown);
        }
        throw fault("spanExit");
    }

    @Override
    public Object monoBlockEnter(Object mono) {
        if (after) {
            runtime.monoBlockEnter(mono);
        }
        throw fault("monoBlockEnter");
    }

    @Override
    public void monoBlockExit(Object token) {
        if (after) {
            runtime.monoBlockExit(token);
        }
        throw fault("monoBlockExit");
    }

    @Override
    public Object waitEnter(String kind, Object waitedOn) {
        if (after) {
            runtime.waitEnter(kind, waitedOn);
        }
        throw fault("waitEnter");
    }

    @Override
    public void waitExit(Object token, Throwable thrown) {
        if (after) {
            runtime.waitExit(token, thrown);
        }
        throw fault("waitExit");
    }

    @Override
    public void onUnpark(Thread thread) {
        if (after) {
            runtime.onUnpark(thread);
        }
        throw fault("onUnpark");
    }

    /**
     * Throws only for a park in a request (where the runtime acts): every park in the JVM comes
     * here, the JDK's own housekeeping included, and a fault outside requests tests nothing more.
     */
    @Override
    public Object parkEnter(Object blocker) {
        if (after) {
            if (runtime.parkEnter(blocker) == null) {
                return null;
            }
        } else {
            ThreadState s = ThreadContexts.current();
            if (s == null || s.request == null) {
                return null;
            }
        }
        throw fault("parkEnter");
    }

    @Override
    public void parkExit(Object token) {
        if (after) {
            runtime.parkExit(token);
        }
        throw fault("parkExit");
    }

    @Override
    public void onComplete(Object result) {
        if (after) {
            runtime.onComplete(result);
        }
        throw fault("onComplete");
    }

    @Override
    public void onError(String instrumentation, Throwable error) {
        runtime.onError(instrumentation, error);
    }
}
