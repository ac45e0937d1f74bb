package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.Hooks;
import java.util.concurrent.Callable;

/**
 * For tests only (-Dhopscope.test.faults=all, read once at install): installed in place of the
 * runtime, every hook throws, so that a test can check that the Bridge keeps each failure away from
 * the application and reports it. Only onError reaches the runtime, to count and report.
 */
public final class FaultInjectingHooks implements Hooks {

    /** The system property that turns it on; not an agent option, so no user turns it on by mistake. */
    public static final String PROPERTY = "hopscope.test.faults";

    private final Hooks reporter;

    public FaultInjectingHooks(Hooks reporter) {
        this.reporter = reporter;
    }

    /** Whether the property asks for faults; any value other than "all" is ignored. */
    public static boolean requested() {
        return "all".equals(System.getProperty(PROPERTY));
    }

    private static RuntimeException fault(String hook) {
        return new IllegalStateException("hopscope.test.faults: injected fault in " + hook);
    }

    @Override
    public Runnable wrapRunnable(Runnable task, Object executor) {
        throw fault("wrapRunnable");
    }

    @Override
    public Callable<?> wrapCallable(Callable<?> task, Object executor) {
        throw fault("wrapCallable");
    }

    @Override
    public void attachTask(Object task, Object via) {
        throw fault("attachTask");
    }

    @Override
    public void attachThread(Thread thread) {
        throw fault("attachThread");
    }

    @Override
    public Object attachedTaskEnter(Object task) {
        throw fault("attachedTaskEnter");
    }

    @Override
    public Object attachedVirtualThreadEnter(Thread thread, Runnable task) {
        throw fault("attachedVirtualThreadEnter");
    }

    @Override
    public void virtualThreadSubmitted(Thread thread) {
        throw fault("virtualThreadSubmitted");
    }

    @Override
    public Object mountEnter(Thread thread) {
        throw fault("mountEnter");
    }

    @Override
    public void mountExit(Object token, Thread thread) {
        throw fault("mountExit");
    }

    @Override
    public void virtualThreadEnded(Thread thread) {
        throw fault("virtualThreadEnded");
    }

    @Override
    public Runnable wrapScheduled(Runnable task, Object executor, long delayNanos, long periodNanos) {
        throw fault("wrapScheduled");
    }

    @Override
    public Callable<?> wrapScheduledCallable(Callable<?> task, Object executor, long delayNanos) {
        throw fault("wrapScheduledCallable");
    }

    @Override
    public void bindFuture(Object task, Object future) {
        throw fault("bindFuture");
    }

    @Override
    public Object captureContext(Object via) {
        throw fault("captureContext");
    }

    @Override
    public Object contextEnter(Object captured) {
        throw fault("contextEnter");
    }

    @Override
    public void contextExit(Object token) {
        throw fault("contextExit");
    }

    @Override
    public Object captureIoContext(Object via) {
        throw fault("captureIoContext");
    }

    @Override
    public Object ioContextEnter(Object captured) {
        throw fault("ioContextEnter");
    }

    @Override
    public void attachContext(Object key, boolean replace) {
        throw fault("attachContext");
    }

    @Override
    public Object attachedContextEnter(Object key) {
        throw fault("attachedContextEnter");
    }

    @Override
    public Object boundaryEnter(String boundary, Object request) {
        throw fault("boundaryEnter");
    }

    @Override
    public Object boundaryExit(Object token, Object result, Throwable thrown) {
        throw fault("boundaryExit");
    }

    @Override
    public Object wrapCallback(Object token, Object callback) {
        throw fault("wrapCallback");
    }

    @Override
    public Object spanEnter(String kind, Object self, boolean async) {
        throw fault("spanEnter");
    }

    @Override
    public Object spanExit(Object token, Object result, Throwable thrown) {
        throw fault("spanExit");
    }

    @Override
    public Object joinEnter(Object waitedOn) {
        throw fault("joinEnter");
    }

    @Override
    public void joinExit(Object token) {
        throw fault("joinExit");
    }

    @Override
    public Object waitEnter(String kind, Object waitedOn) {
        throw fault("waitEnter");
    }

    @Override
    public void waitExit(Object token, Throwable thrown) {
        throw fault("waitExit");
    }

    @Override
    public void onUnpark(Thread thread) {
        throw fault("onUnpark");
    }

    @Override
    public void onComplete(Object result) {
        throw fault("onComplete");
    }

    @Override
    public void onError(String instrumentation, Throwable error) {
        reporter.onError(instrumentation, error);
    }
}
