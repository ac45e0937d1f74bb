package io.hopscope.agent.bootstrap;

/**
 * Hooks of a virtual thread's runs on its carriers while it works on a request (runtime's Carriers).
 * See {@link Hook} for the Bridge forwarder the build generates from each.
 */
public interface CarrierHooks {

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
}
