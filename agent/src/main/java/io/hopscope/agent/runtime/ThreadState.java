package io.hopscope.agent.runtime;

import io.hopscope.agent.events.SegmentEvent;
import io.hopscope.agent.events.SpanEvent;
import io.hopscope.agent.events.WaitEvent;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/** What the agent knows about one thread: its current request, span, open segment and wait. */
final class ThreadState {

    final Thread thread;
    /** Whether the thread is virtual: its runs on carriers are followed (see Carriers). */
    final boolean virtual;

    /** The request this thread works on now, or null. */
    RequestState request;
    /**
     * The innermost open span on this thread (0 = none) and the depth a child of it gets; the
     * object whose span is innermost, so that a policy calling super opens no second span. Written
     * only through {@link SpanPosition}.
     */
    long spanId;
    int childDepth;
    Object spanOwner;

    /** The open segment, or null; the counters read when it began. */
    SegmentEvent segment;
    /**
     * The segment event this thread reuses: a segment begins and ends on its own thread, so one
     * event object per thread serves them all (a request's segments allocate nothing).
     */
    SegmentEvent segmentEvent;
    long segmentAllocatedBytesAtStart;
    long segmentCpuNanosAtStart;

    /**
     * The agent's own work on this thread during the open segment (see AgentWork): classes offered
     * and rewritten, wall time, CPU and bytes (-1: no counter); and the outermost transformation's
     * depth and starting readings.
     */
    int agentClasses;
    int agentTransformed;
    long agentNanos;
    long agentCpuNanos;
    long agentBytes;
    int agentWorkDepth;
    long agentWorkStartNanos;
    long agentWorkStartBytes;
    long agentWorkStartCpuNanos;

    /** Depth of instrumented waits on this thread (a wait inside a wait is not a second wait). */
    int waitDepth;
    /** Last thread that unparked this one while it was registered as waiting, and when. */
    volatile Thread waker;
    volatile long wakeNanos;
    /** The request the waker was working on when it unparked this thread (a park counts only its own). */
    volatile RequestState wakerRequest;

    /**
     * A LockSupport#park* of this thread in a request, outside any known wait, in progress (see
     * Waits#parkEnter): what it parked on, and its Wait event, reused from park to park.
     */
    boolean parking;
    Object parkBlocker;
    WaitEvent parkEvent;

    /**
     * The last way back into this thread (a wake hop, or a return hop of a task it ran): from which
     * thread, when (the unpark, or the pickup), in which request. The rest of the same way back adds
     * no hop (see Handoffs#taskStart, Waits#parkExit): the tasks that thread queued for this one and
     * the parks of this one it ends, until this thread hands the request to it again (that thread
     * then clears wokenBy: Handoffs#handedOverAgain). A caller draining its own executor picks up a
     * response's pieces one by one, parking between them or not.
     */
    volatile Thread wokenBy;
    long wokenAtNanos;
    RequestState wokenIn;
    static final AtomicReferenceFieldUpdater<ThreadState, Thread> WOKEN_BY =
            AtomicReferenceFieldUpdater.newUpdater(ThreadState.class, Thread.class, "wokenBy");

    /**
     * The server's hand-over this thread is running (a task handed over before any request began),
     * until a request begins in it and takes it, or the task ends: see HopTask.Inbound.
     */
    HopTask.Inbound inbound;
    /**
     * A task a server is about to hand to an executor it has not named yet (Handoffs#serverTask):
     * its wrapping there is the server's hand-over. Held until then, or until the next such task.
     */
    Runnable serverTask;
    /**
     * Entries of the current inbound request's server on this thread that returned a token: 1 at
     * its boundary (or its re-entry on a thread it hopped to), 2 inside its first layer; deeper
     * layers are not counted (see Servers#serverEnter).
     */
    int serverDepth;
    /**
     * Depth of a server's queueing of a hand-over in an executor of its own (ServerHooks#serverQueueEnter):
     * while positive, a task this thread hands to an executor in a request carries that hand-over.
     */
    int serverQueueing;

    /** The task running on this thread now (a HopTask's run), or null: a task nested in it from the same thread adds no hop. */
    HopTask runningTask;

    /**
     * The last task from another thread that began here inside another task (the task running
     * then, the submitter, its request): the next one from the same submitter and request inside
     * the same run is the same hand-over, drained from the same queue (see Handoffs#taskStart).
     */
    HopTask drainedDuring;
    Thread drainedFrom;
    RequestState drainedIn;

    /** Whether a library declares this thread non-blocking (LibraryRules#isNonBlockingThread). */
    enum Blocking { NOT_LOOKED_UP, MAY_BLOCK, NON_BLOCKING }

    /** This thread's {@link Blocking}, looked up the first time a wait on it needs it. */
    Blocking blocking = Blocking.NOT_LOOKED_UP;

    /** Depth of Mono#block calls on this thread, and the request such a block() joined, or null. */
    int blockDepth;
    RequestState blockJoin;

    /** The next span id this thread hands out, and the end of its block (see Spans#nextSpanId). */
    long nextSpanId;
    long spanIdLimit;

    /**
     * The synchronous spans open on this thread, innermost last. A synchronous span opens and
     * closes on its own thread, strictly nested, so its frame (event and what to restore) is reused
     * by depth: opening and closing one allocates nothing once the thread has seen that depth.
     */
    SpanFrame[] spanFrames = new SpanFrame[4];
    int openSyncSpans;

    /** Set while the agent's self-check runs on this thread. */
    boolean selfCheck;

    ThreadState(Thread thread) {
        this.thread = thread;
        this.virtual = Carriers.isVirtual(thread);
    }

    /** One open synchronous span: its event, and (inherited) the thread's position to restore when it closes. */
    static final class SpanFrame extends SpanPosition {
        final ThreadState state;
        final int index;
        final SpanEvent event = new SpanEvent();
        /** The object whose class names the span when the event's name is null (a policy's span). */
        Object named;

        SpanFrame(ThreadState state, int index) {
            this.state = state;
            this.index = index;
        }
    }
}
