package io.hopscope.agent.bootstrap;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the generated {@code Bridge} reads before it calls a hook: the runtime's part behind each
 * hook interface (one field a part; the build finds a hook's field by its interface) and the
 * counters that let the hottest hooks return at once while nothing of theirs is in progress.
 * Advice and the runtime name them through Bridge, which inherits them. A part's field is null
 * until the agent is installed, which means "do nothing".
 */
public abstract class BridgeState {

    /** Where a hook's failure is reported; set before the parts. */
    public static volatile HookErrors errors;

    public static volatile HandoffHooks handoffs;

    public static volatile CarrierHooks carriers;

    public static volatile RequestHooks requests;

    public static volatile ServerHooks servers;

    public static volatile SpanHooks spans;

    public static volatile WaitHooks waits;

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

    /**
     * Number of inbound requests waiting for their exchange's end (see ServerHooks#serverEnd), an
     * upper bound. Every exchange of such a server reports its end: one volatile read while none is.
     */
    public static final AtomicInteger OPEN_EXCHANGES = new AtomicInteger();

    BridgeState() {
    }

    /** A hook of {@code instrumentation} threw {@code error}: reported, never thrown on. */
    static void failed(String instrumentation, Throwable error) {
        HookErrors e = errors;
        if (e != null) {
            e.onError(instrumentation, error);
        }
    }
}
