package io.hopscope.agent.bootstrap;

/**
 * Hooks of a request's threads waiting, parking and being woken, and of results completed (runtime's
 * Waits). See {@link Hook} for the Bridge forwarder the build generates from each.
 */
public interface WaitHooks {

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
}
