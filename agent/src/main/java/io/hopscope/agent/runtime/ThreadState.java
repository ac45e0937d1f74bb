package io.hopscope.agent.runtime;

import io.hopscope.agent.events.SegmentEvent;

/** What the agent knows about one thread: its current request, span, open segment and wait. */
final class ThreadState {

    final Thread thread;

    /** The request this thread works on now, or null. */
    RequestState request;
    /** The innermost open span on this thread (0 = none) and the depth a child of it gets. */
    long spanId;
    int childDepth;
    /** The object whose span is innermost, so that a policy calling super opens no second span. */
    Object spanOwner;

    /** The open segment, or null; the counters read when it began. */
    SegmentEvent segment;
    long segmentAllocatedBytesAtStart;
    long segmentCpuNanosAtStart;

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

    /** The next span id this thread hands out, and the end of its block (see HopscopeRuntime#nextSpanId). */
    long nextSpanId;
    long spanIdLimit;

    /** Set while the agent's self-check runs on this thread. */
    boolean selfCheck;

    ThreadState(Thread thread) {
        this.thread = thread;
    }
}
