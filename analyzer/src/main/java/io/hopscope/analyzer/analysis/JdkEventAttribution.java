package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.threads.SegmentWindow;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.read.JdkEventFields;
import io.hopscope.analyzer.read.JfrEvents;
import java.util.function.Function;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * Joins lock contention, monitor waits, virtual threads' pinning and allocation samples to the request whose segment they
 * fall in (parks and monitor waits and enters also as the request's possible blind spots, {@link BlindSpots}). Each waits
 * for its segment ({@link PendingPlacement}: the file gives it later); one outside every request is dropped.
 */
final class JdkEventAttribution {

    /** What a JDK event's attribution needs besides its thread and span. */
    private record JdkEvent(int kind, long weightBytes, RecordedClass type, RecordedStackTrace stack, ThreadRef waker) {
    }

    private static final int MONITOR = 0;
    private static final int PARK = 1;
    private static final int ALLOCATION = 2;
    private static final int PINNED = 3;
    private static final int MONITOR_WAIT = 4;

    private final RecordingFacts facts;
    private final JfrEvents jfr;
    private final SegmentWindow<RequestInProgress> window;
    private final PendingPlacement<JdkEvent> pending;
    private long sampledAllocBytes;
    private long sampledAllocBytesInRequests;

    JdkEventAttribution(RecordingFacts facts, JfrEvents jfr, SegmentWindow<RequestInProgress> window) {
        this.facts = facts;
        this.jfr = jfr;
        this.window = window;
        this.pending = new PendingPlacement<>(window, this::attribute, dropped -> { });
    }

    void onMonitorEnter(RecordedEvent e) {
        lock(e, MONITOR, JdkEventFields::monitorClass, JdkEventFields::previousOwner);
    }

    void onPark(RecordedEvent e) {
        lock(e, PARK, JdkEventFields::parkedClass, null);
    }

    /** Object.wait: not contention, but a wait hopscope may not explain (its notifier, when JFR saw one, woke it). */
    void onMonitorWait(RecordedEvent e) {
        lock(e, MONITOR_WAIT, JdkEventFields::monitorClass, JdkEventFields::notifier);
    }

    // The class and waker are read only for an event that is kept.
    private void lock(RecordedEvent e, int kind, Function<RecordedEvent, RecordedClass> blocker,
                      Function<RecordedEvent, RecordedThread> waker) {
        long start = JfrEvents.startNanos(e);
        long end = JfrEvents.endNanos(e);
        facts.jdkEvent(start, end);
        RecordedThread t = e.getThread();
        if (t == null || end <= start) {
            return;
        }
        pending.add(t.getJavaThreadId(), start, end, new JdkEvent(kind, 0,
                blocker.apply(e), e.getStackTrace(), waker == null ? null : jfr.thread(waker.apply(e))));
    }

    /** A virtual thread parked or blocked pinned to its carrier (JDK 21+; the event's thread is the virtual one). */
    void onPinned(RecordedEvent e) {
        long start = JfrEvents.startNanos(e);
        long end = JfrEvents.endNanos(e);
        facts.jdkEvent(start, end);
        RecordedThread t = e.getThread();
        if (t != null && end > start) {
            pending.add(t.getJavaThreadId(), start, end, new JdkEvent(PINNED, 0, null, null, null));
        }
    }

    void onAllocationSample(RecordedEvent e) {
        long start = JfrEvents.startNanos(e);
        facts.jdkEvent(start, JfrEvents.endNanos(e));
        long weight = JdkEventFields.weightBytes(e);
        sampledAllocBytes += weight;
        RecordedThread t = e.getThread();
        if (t != null) {
            // Stack and class are constant-pool objects, not part of the reused event: safe to keep.
            pending.add(t.getJavaThreadId(), start, start, new JdkEvent(ALLOCATION, weight,
                    JdkEventFields.objectClass(e), e.getStackTrace(), null));
        }
    }

    /** At flush point {@code flush}: joins what waited, keeping what may still find its segment. */
    void onFlush(long flush) {
        pending.onFlush(flush);
    }

    /** At the end of the file: joins what can be, drops the rest. */
    void joinRemaining() {
        pending.placeRemaining();
    }

    private void attribute(JdkEvent event, long javaThreadId, long startNanos, long endNanos, RequestInProgress r) {
        if (event.kind() == ALLOCATION) {
            String agentFrame = agentFrame(event.stack());
            if (agentFrame == null) {
                sampledAllocBytesInRequests += event.weightBytes();
            }
            r.addAllocationSample(agentFrame != null ? agentFrame : JfrEvents.topFrame(event.stack()),
                    event.type() == null ? "?" : event.type().getName(), event.weightBytes(), javaThreadId);
            return;
        }
        long overlap = window.overlapNanos(javaThreadId, startNanos, endNanos, r);
        if (overlap <= 0) {
            return;
        }
        if (event.kind() == PINNED) {
            r.addPinned(overlap);
            return;
        }
        String blocker = event.type() == null ? null : event.type().getName();
        r.blind().addParked(event.kind() == PARK ? BlindSpots.PARK : event.kind() == MONITOR ? BlindSpots.MONITOR_ENTER
                : BlindSpots.MONITOR_WAIT, javaThreadId, startNanos, endNanos, overlap, blocker, event.stack(), event.waker());
        if (event.kind() == MONITOR_WAIT) {
            return;
        }
        r.addLock(event.kind() == MONITOR ? "monitor" : "park", blocker == null ? "?" : blocker, overlap,
                endNanos - startNanos, () -> JfrEvents.stack(event.stack(), 6));
    }

    /**
     * The frame of the agent's package (its shaded Byte Buddy included) that made an allocation
     * sample's allocation, or null: walking from the top of the stack past the JDK's frames, the
     * first other frame is the agent's. An application frame above it means the application
     * allocated, in a task the agent's wrapper runs (every task handed over in a request runs under
     * one), so the allocation is the request's.
     */
    static String agentFrame(RecordedStackTrace stack) {
        if (stack == null) {
            return null;
        }
        for (RecordedFrame f : stack.getFrames()) {
            if (f.getMethod() == null || f.getMethod().getType() == null) {
                continue;
            }
            String type = f.getMethod().getType().getName();
            if (type.startsWith(RequestInProgress.AGENT_PACKAGE)) {
                return JfrEvents.frame(f);
            }
            if (!JfrEvents.isJdkType(type)) {
                return null;
            }
        }
        return null;
    }

    long sampledAllocBytes() {
        return sampledAllocBytes;
    }

    long sampledAllocBytesInRequests() {
        return sampledAllocBytesInRequests;
    }
}
