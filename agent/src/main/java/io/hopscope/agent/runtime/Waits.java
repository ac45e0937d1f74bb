package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.bootstrap.WaitHooks;
import io.hopscope.agent.events.NonBlockingWaitEvent;
import io.hopscope.agent.events.WaitEvent;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Blocking waits (a future's get, Reactor's block): the Wait event, the thread that woke the
 * waiter (seen in LockSupport#unpark while the waiter is registered) and the wake hop; waits on
 * non-blocking threads, in a request or not; and a block() that joins the request it waits for.
 *
 * <p>The way back is a hop whatever the timing: a result completed by one thread of a request and
 * picked up by another is a {@code wake} hop when the picker parked and was woken, and a
 * {@code return} hop when the result was there when it looked (no Wait then), from the thread that
 * completed it ({@link #onComplete}, kept in the request's {@link Completions}).
 */
final class Waits implements WaitHooks {

    private static final Object NESTED_WAIT = new Object();

    /** Threads blocked in an instrumented wait right now: bounded by the number of live threads. */
    private final ConcurrentHashMap<Thread, ThreadState> waiting = new ConcurrentHashMap<>();
    private final LibraryRules rules;

    Waits(LibraryRules rules) {
        this.rules = rules;
    }

    /** An instrumented wait in progress. */
    private static final class WaitScope {
        final ThreadState state;
        final String kind;
        final String via;
        final RequestState request;
        final boolean nonBlocking;
        final Object waitedOn;
        final WaitEvent event = new WaitEvent();

        WaitScope(ThreadState state, String kind, Object waitedOn, RequestState request, boolean nonBlocking) {
            this.state = state;
            this.kind = kind;
            this.waitedOn = waitedOn;
            this.via = waitedOn == null ? "?" : waitedOn.getClass().getName();
            this.request = request;
            this.nonBlocking = nonBlocking;
        }
    }

    @Override
    public Object waitEnter(String kind, Object waitedOn) {
        ThreadState s = ThreadContexts.state();
        if (s.waitDepth > 0) {
            s.waitDepth++;
            return NESTED_WAIT;
        }
        boolean nonBlocking = isNonBlocking(s);
        if (s.request == null && !nonBlocking) {
            return null;
        }
        // A result already there at the call is no wait, but it is a hop if another thread put it there.
        if (isDone(waitedOn)) {
            if (s.request != null) {
                returned(s.request, waitedOn, s.thread);
            }
            return null;
        }
        if (kind == null) {
            kind = rules.waitKind(waitedOn);
        }
        WaitScope w = new WaitScope(s, kind, waitedOn, s.request, nonBlocking);
        w.event.begin();
        if (s.request != null) {
            ThreadContexts.endSegment(s);
        }
        s.waitDepth = 1;
        s.waker = null;
        waiting.put(s.thread, s);
        Bridge.WAITERS.incrementAndGet();
        return w;
    }

    @Override
    public void waitExit(Object token, Throwable thrown) {
        if (token == NESTED_WAIT) {
            ThreadContexts.state().waitDepth--;
            return;
        }
        WaitScope w = (WaitScope) token;
        ThreadState s = w.state;
        long now = System.nanoTime();
        s.waitDepth = 0;
        waiting.remove(s.thread);
        Bridge.WAITERS.decrementAndGet();
        Thread waker = s.waker;
        long wakeNanos = s.wakeNanos;
        s.waker = null;
        RequestState r = w.request;
        if (waker == null && r != null) {
            // No unpark seen: the result was completed while this thread was in the wait, before it
            // registered or parked. It was not there when it looked, so the way back is a wake from
            // the thread that completed it, counted from that completion.
            Completions done = r.completionsIfAny();
            Completions.Completion c = done == null || w.waitedOn == null ? null : done.takeCompletion(w.waitedOn);
            if (c != null && c.by() != s.thread) {
                waker = c.by();
                wakeNanos = c.nanos();
            }
        }
        WaitEvent e = w.event;
        e.end();
        e.requestId = r == null ? 0 : r.id;
        e.kind = w.kind;
        e.wakerThread = waker;
        e.wakeLatencyNanos = waker == null ? -1 : now - wakeNanos;
        e.nonBlockingThread = w.nonBlocking;
        e.outcome = outcomeOf(thrown);
        e.commit();
        if (w.nonBlocking) {
            NonBlockingWaitEvent nb = new NonBlockingWaitEvent();
            nb.requestId = e.requestId;
            nb.kind = w.kind;
            nb.commit();
        }
        if (r != null && waker != null && waker != s.thread) {
            HopEvents.wake(r, waker, s.thread, now - wakeNanos, w.via);
            Handoffs.wokenBy(s, waker, wakeNanos, r);
            Completions done = r.completionsIfAny();
            if (done != null) {
                done.forget(w.waitedOn);
            }
        }
        if (r != null && s.request == r) {
            ThreadContexts.beginSegment(s, "resume");
        }
    }

    /**
     * {@code result} is about to be completed on this thread (called before it is visible as done):
     * recorded in the thread's request, if it has one and the result is not done already.
     */
    @Override
    public void onComplete(Object result) {
        completing(result);
    }

    /** onComplete's work, for a task of the runtime's own that completes its future (HopTask). */
    static void completing(Object result) {
        ThreadState s = ThreadContexts.current();
        if (s == null || s.request == null || result == null || isDone(result)) {
            return;
        }
        s.request.completions().record(result, s.thread, System.nanoTime());
    }

    /** {@code picker} took {@code result} without parking: a return hop if another thread of r completed it. */
    private static void returned(RequestState r, Object result, Thread picker) {
        Completions done = r.completionsIfAny();
        if (done != null && result != null) {
            done.returned(r, result, picker, result.getClass().getName());
        }
    }

    /** A future with its result, a latch at zero (Reactor's blocking subscribers are latches), a thread that ended. */
    private static boolean isDone(Object result) {
        if (result instanceof Future) {
            return ((Future<?>) result).isDone();
        }
        if (result instanceof Thread) {
            return !((Thread) result).isAlive();
        }
        return result instanceof CountDownLatch && ((CountDownLatch) result).getCount() == 0;
    }

    @Override
    public void onUnpark(Thread thread) {
        ThreadState s = waiting.get(thread);
        if (s != null && thread != Thread.currentThread()) {
            ThreadState by = ThreadContexts.current();
            s.wakerRequest = by == null ? null : by.request;
            s.wakeNanos = System.nanoTime();
            s.waker = Thread.currentThread();
        }
    }

    // ---------------------------------------------------------------- any park

    /**
     * LockSupport#park* entered. Outside a request, or inside a wait known by name (whose own
     * event and hop it is part of), nothing: one ThreadLocal lookup, no allocation. In a request the
     * thread is registered as waiting, so that an unpark names its waker; the token goes to parkExit.
     */
    @Override
    public Object parkEnter(Object blocker) {
        ThreadState s = ThreadContexts.current();
        if (s == null || s.request == null || s.waitDepth > 0 || s.parking) {
            return null;
        }
        s.parking = true;
        // park() without a blocker inside a JDK wait that set one itself (JDK 17+'s Condition#await).
        s.parkBlocker = blocker != null ? blocker : LockSupport.getBlocker(s.thread);
        WaitEvent e = s.parkEvent;
        if (e == null) {
            e = new WaitEvent();
            s.parkEvent = e;
        }
        e.begin();
        s.waker = null;
        s.wakerRequest = null;
        waiting.put(s.thread, s);
        Bridge.WAITERS.incrementAndGet();
        return s;
    }

    /**
     * The park returned. Unparked by a thread working on the same request: a Wait (its kind from the
     * blocker, see LibraryRules#parkKind) and a wake hop, via the blocker's class, or the class that
     * parked when there is none; no second hop when it is the rest of the waker's last way back into
     * this thread (a caller that parks again in the executor it drains, for the next piece of the
     * same response: ThreadState#wokenBy), but the Wait all the same. Otherwise (a
     * timeout, an interrupt, a spurious return, an unpark from outside the request) nothing: a park
     * that explains no wait of the request is not recorded here.
     */
    @Override
    public void parkExit(Object token) {
        ThreadState s = (ThreadState) token;
        long now = System.nanoTime();
        waiting.remove(s.thread);
        Bridge.WAITERS.decrementAndGet();
        Object blocker = s.parkBlocker;
        s.parkBlocker = null;
        Thread waker = s.waker;
        s.waker = null;
        RequestState r = s.request;
        try {
            if (waker == null || waker == s.thread || s.wakerRequest != r || r == null) {
                return;
            }
            long wakeNanos = s.wakeNanos;
            WaitEvent e = s.parkEvent;
            e.end();
            e.requestId = r.id;
            e.kind = rules.parkKind(blocker);
            e.wakerThread = waker;
            e.wakeLatencyNanos = now - wakeNanos;
            e.nonBlockingThread = false;
            e.outcome = "value";
            e.commit();
            if (waker != s.wokenBy || r != s.wokenIn) {
                HopEvents.wake(r, waker, s.thread, now - wakeNanos,
                        blocker != null ? blocker.getClass().getName() : parkingClass());
                Handoffs.wokenBy(s, waker, wakeNanos, r);
            }
        } finally {
            // Only now: a park inside the writing of these events (a lock in JFR's code) is not one of the request's.
            s.parking = false;
        }
    }

    /** The class whose code called LockSupport#park* (past the agent's frames and LockSupport's own). */
    private static String parkingClass() {
        return StackWalker.getInstance().walk(frames -> frames
                .map(StackWalker.StackFrame::getClassName)
                .filter(c -> !c.startsWith("io.hopscope.agent.") && !c.equals("java.util.concurrent.locks.LockSupport"))
                .findFirst().orElse("?"));
    }

    private String outcomeOf(Throwable thrown) {
        if (thrown == null) {
            return "value";
        }
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InterruptedException) {
                return "interrupted";
            }
            if (t instanceof TimeoutException) {
                return "timeout";
            }
        }
        // A library that reports a timed-out wait its own way (Reactor's block(Duration)).
        return rules.isTimeout(thrown) ? "timeout" : "error";
    }

    private boolean isNonBlocking(ThreadState s) {
        if (s.blocking == ThreadState.Blocking.NOT_LOOKED_UP) {
            s.blocking = rules.isNonBlockingThread(s.thread)
                    ? ThreadState.Blocking.NON_BLOCKING : ThreadState.Blocking.MAY_BLOCK;
        }
        return s.blocking == ThreadState.Blocking.NON_BLOCKING;
    }

    // ---------------------------------------------------------------- joins

    /**
     * Mono#block entered. A request whose Mono is subscribed inside this block() (directly, or as
     * the source of the chain being blocked on) is joined by this thread: the request then ends when
     * the block returns, so that it includes the wake back. Allocates nothing.
     */
    @Override
    public Object monoBlockEnter(Object mono) {
        ThreadState s = ThreadContexts.state();
        s.blockDepth++;
        if (mono instanceof RequestCarrier && s.request == null && s.blockJoin == null) {
            join(s, ((RequestCarrier) mono).hopscopeRequest());
        }
        return s;
    }

    /** This thread, blocked on r's result, takes r over until the block returns (unless r ended or has a joiner). */
    static boolean join(ThreadState s, RequestState r) {
        if (!r.join(s.thread)) {
            return false;
        }
        SpanPosition.clear(s);
        s.request = r;
        s.blockJoin = r;
        ThreadContexts.beginSegment(s, "resume");
        return true;
    }

    /** Mono#block returned or threw: the request it joined, if any, is left (and ends here if it is done). */
    @Override
    public void monoBlockExit(Object token) {
        ThreadState s = (ThreadState) token;
        if (--s.blockDepth > 0 || s.blockJoin == null) {
            return;
        }
        RequestState r = s.blockJoin;
        s.blockJoin = null;
        boolean endHere = r.leaveJoin();
        if (s.request == r) {
            ThreadContexts.leaveRequest(s);
        }
        if (endHere) {
            r.commit();
        }
    }
}
