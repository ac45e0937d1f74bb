package io.hopscope.agent.bootstrap;

import java.util.Collection;
import java.util.concurrent.Callable;

/** What advice inlined anywhere (JDK classes included) may ask of the agent's runtime. */
public interface Hooks {

    Runnable wrapRunnable(Runnable task, Object executor);

    Callable<?> wrapCallable(Callable<?> task, Object executor);

    Collection<?> wrapCallables(Collection<?> tasks, Object executor);

    void attachTask(Object task, Object via);

    void attachThread(Thread thread);

    Object attachedTaskEnter(Object task);

    Object attachedVirtualThreadEnter(Thread thread, Runnable task);

    void virtualThreadSubmitted(Thread thread);

    Object mountEnter(Thread thread);

    void mountExit(Object token, Thread thread);

    void virtualThreadEnded(Thread thread);

    Runnable wrapScheduled(Runnable task, Object executor, long delayNanos, long periodNanos);

    Callable<?> wrapScheduledCallable(Callable<?> task, Object executor, long delayNanos);

    void bindFuture(Object task, Object future);

    Object captureContext(Object via);

    Object contextEnter(Object captured);

    void contextExit(Object token);

    Object captureIoContext(Object via);

    Object ioContextEnter(Object captured);

    void attachContext(Object key, boolean replace);

    Object attachedContextEnter(Object key);

    Object boundaryEnter(String boundary, Object request);

    Object boundaryExit(Object token, Object result, Throwable thrown);

    Object wrapCallback(Object token, Object callback);

    Object spanEnter(String kind, Object self, boolean async);

    Object spanExit(Object token, Object result, Throwable thrown);

    Object joinEnter(Object waitedOn);

    void joinExit(Object token);

    Object waitEnter(String kind, Object waitedOn);

    void waitExit(Object token, Throwable thrown);

    void onUnpark(Thread thread);

    Object parkEnter(Object blocker);

    void parkExit(Object token);

    void onComplete(Object result);

    void onError(String instrumentation, Throwable error);
}
