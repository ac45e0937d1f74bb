package io.hopscope.agent.runtime;

import io.hopscope.agent.events.SegmentEvent;

/**
 * Each thread's {@link ThreadState}, and the segments it opens and closes: a segment is the time
 * one thread works on one request without a break, begun and ended on that thread.
 */
final class ThreadContexts {

    /** Static and final: the JIT reads it as a constant, one ThreadLocal lookup per hook. */
    private static final ThreadLocal<ThreadState> STATES = new ThreadLocal<>();

    private ThreadContexts() {
    }

    /**
     * This thread's state, or null when the agent has not seen the thread in a request yet. For the
     * hooks that do nothing outside a request: the lookup allocates nothing.
     */
    static ThreadState current() {
        return STATES.get();
    }

    /** This thread's state, made on the thread's first use. */
    static ThreadState state() {
        ThreadState s = STATES.get();
        if (s == null) {
            s = new ThreadState(Thread.currentThread());
            STATES.set(s);
        }
        return s;
    }

    /** Opens a segment of the thread's current request; its event object is the thread's own, reused. */
    static void beginSegment(ThreadState s, String kind) {
        SegmentEvent e = s.segmentEvent;
        if (e == null) {
            e = new SegmentEvent();
            s.segmentEvent = e;
        }
        if (!e.isEnabled()) {
            return;
        }
        ThreadMeter meter = ThreadMeter.get();
        e.requestId = s.request.id;
        e.kind = kind;
        s.segmentAllocatedBytesAtStart = meter.allocatedBytes();
        s.segmentCpuNanosAtStart = meter.cpuNanos();
        s.segment = e;
        e.begin();
    }

    /** Closes the thread's open segment, if any, with what the thread allocated (and ran) meanwhile. */
    static void endSegment(ThreadState s) {
        SegmentEvent e = s.segment;
        if (e == null) {
            return;
        }
        s.segment = null;
        e.end();
        ThreadMeter meter = ThreadMeter.get();
        // -1 where the JVM cannot say (a virtual thread's counters on JDK 21-25): unknown, not 0.
        long allocatedBytes = meter.allocatedBytes();
        e.allocatedBytes = allocatedBytes < 0 || s.segmentAllocatedBytesAtStart < 0 ? -1
                : allocatedBytes - s.segmentAllocatedBytesAtStart;
        e.cpuNanos = s.segmentCpuNanosAtStart < 0 ? -1 : meter.cpuNanos() - s.segmentCpuNanosAtStart;
        e.commit();
        AgentWork.commitAfterSegment(s, e.requestId);
    }

    /** The thread stops working on its request here: its segment ends and it is in no request. */
    static void leaveRequest(ThreadState s) {
        endSegment(s);
        SpanPosition.clear(s);
    }
}
