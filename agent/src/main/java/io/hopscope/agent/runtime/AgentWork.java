package io.hopscope.agent.runtime;

import io.hopscope.agent.events.AgentWorkEvent;

/**
 * Measures the agent's own work on an application thread: Byte Buddy transforms each class on the
 * thread that loads it, so in a request the agent's matching and rewriting would otherwise count
 * as the request's time and allocation. Each outermost transformation on a thread inside a segment
 * is timed and metered here; its bytes and CPU are taken out of the segment (its counters' start
 * moves forward by as much) and written apart, as one hopscope.AgentWork after the segment.
 *
 * <p>Outside a segment (premain, threads in no request, no recording) nothing is read: one
 * ThreadLocal lookup per class loaded.
 */
public final class AgentWork {

    private AgentWork() {
    }

    /**
     * Called before a transformer runs on the loading thread; {@code countsClass} for the one
     * transformer that counts each class once. Returns the token {@link #end} takes, or null when
     * nothing is measured (not in a segment, or inside another transformation on this thread).
     */
    public static Object begin(boolean countsClass) {
        ThreadState s = ThreadContexts.current();
        if (s == null || s.segment == null) {
            return null;
        }
        if (countsClass) {
            s.agentClasses++;
        }
        if (s.agentWorkDepth++ > 0) {
            return null; // a class loaded while another is transformed: the outer one measures both
        }
        ThreadMeter meter = ThreadMeter.get();
        s.agentWorkStartNanos = System.nanoTime();
        s.agentWorkStartBytes = meter.allocatedBytesOrUnknown();
        s.agentWorkStartCpuNanos = meter.cpuNanos();
        return s;
    }

    /** Called after the transformer, with {@link #begin}'s token (in a finally: also when it threw). */
    public static void end(Object token) {
        ThreadState s = ThreadContexts.current();
        if (s == null || s.agentWorkDepth == 0) {
            return;
        }
        s.agentWorkDepth--;
        if (token != s) {
            return;
        }
        ThreadMeter meter = ThreadMeter.get();
        long bytes = meter.allocatedBytesOrUnknown();
        long cpu = meter.cpuNanos();
        s.agentNanos += System.nanoTime() - s.agentWorkStartNanos;
        if (bytes >= 0 && s.agentWorkStartBytes >= 0) {
            long spent = bytes - s.agentWorkStartBytes;
            if (s.agentBytes >= 0) {
                s.agentBytes += spent;
            }
            if (s.segmentAllocatedBytesAtStart >= 0) {
                s.segmentAllocatedBytesAtStart += spent;
            }
        } else {
            s.agentBytes = -1;
        }
        if (cpu >= 0 && s.agentWorkStartCpuNanos >= 0) {
            long spent = cpu - s.agentWorkStartCpuNanos;
            if (s.agentCpuNanos >= 0) {
                s.agentCpuNanos += spent;
            }
            if (s.segmentCpuNanosAtStart >= 0) {
                s.segmentCpuNanosAtStart += spent;
            }
        } else {
            s.agentCpuNanos = -1;
        }
    }

    /** The class being transformed on this thread was rewritten (Byte Buddy's listener, same thread). */
    public static void transformed() {
        ThreadState s = ThreadContexts.current();
        if (s != null && s.segment != null && s.agentWorkDepth > 0) {
            s.agentTransformed++;
        }
    }

    /** After the thread's segment ended: writes the agent's work during it, if any, and starts afresh. */
    static void commitAfterSegment(ThreadState s, long requestId) {
        if (s.agentClasses == 0 && s.agentNanos == 0) {
            return;
        }
        AgentWorkEvent e = new AgentWorkEvent();
        e.requestId = requestId;
        e.classes = s.agentClasses;
        e.transformedClasses = s.agentTransformed;
        e.nanos = s.agentNanos;
        e.cpuNanos = s.agentCpuNanos;
        e.allocatedBytes = s.agentBytes;
        e.commit();
        s.agentClasses = 0;
        s.agentTransformed = 0;
        s.agentNanos = 0;
        s.agentCpuNanos = 0;
        s.agentBytes = 0;
    }
}
