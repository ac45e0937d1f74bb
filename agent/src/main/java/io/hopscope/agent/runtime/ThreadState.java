package io.hopscope.agent.runtime;

import io.hopscope.agent.events.SegmentEvent;
import io.hopscope.agent.events.SpanEvent;

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

    /** Whether this thread is a non-blocking thread: 0 not yet known, 1 no, 2 yes. */
    byte nonBlocking;

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
