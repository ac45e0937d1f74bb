package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.threads.SegmentWindow;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.read.JdkEventFields;
import io.hopscope.analyzer.read.JfrEvents;
import java.util.function.Function;
import io.hopscope.analyzer.read.JfrClass;
import io.hopscope.analyzer.read.JfrEvent;
import io.hopscope.analyzer.read.JfrFrame;
import io.hopscope.analyzer.read.JfrStack;
import io.hopscope.analyzer.read.JfrThread;

/**
 * Joins lock contention, monitor waits, virtual threads' pinning and allocation samples to the request whose segment they
 * fall in (parks and monitor waits and enters also as the request's possible blind spots, {@link BlindSpots}). Each waits
 * for its segment ({@link PendingPlacement}: the file gives it later); one outside every request is dropped.
 */
final class JdkEventAttribution {

    /** What a JDK event's attribution needs besides its thread and span. */
    private record JdkEvent(int kind, long weightBytes, JfrClass type, JfrStack stack, ThreadRef waker) {
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

    void onMonitorEnter(JfrEvent e) {
        lock(e, MONITOR, JdkEventFields::monitorClass, JdkEventFields::previousOwner);
    }

    void onPark(JfrEvent e) {
        lock(e, PARK, JdkEventFields::parkedClass, null);
    }

    /** Object.wait: not contention, but a wait hopscope may not explain (its notifier, when JFR saw one, woke it). */
    void onMonitorWait(JfrEvent e) {
        lock(e, MONITOR_WAIT, JdkEventFields::monitorClass, JdkEventFields::notifier);
    }

    // The class and waker are read only for an event that is kept.
    private void lock(JfrEvent e, int kind, Function<JfrEvent, JfrClass> blocker,
                      Function<JfrEvent, JfrThread> waker) {
        long start = e.startNanos();
        long end = e.endNanos();
        facts.jdkEvent(start, end);
        JfrThread t = e.thread();
        if (t == null || end <= start) {
            return;
        }
        pending.add(t.javaThreadId(), start, end, new JdkEvent(kind, 0,
                blocker.apply(e), e.stackTrace(), waker == null ? null : jfr.thread(waker.apply(e))));
    }

    /** A virtual thread parked or blocked pinned to its carrier (JDK 21+; the event's thread is the virtual one). */
    void onPinned(JfrEvent e) {
        long start = e.startNanos();
        long end = e.endNanos();
        facts.jdkEvent(start, end);
        JfrThread t = e.thread();
        if (t != null && end > start) {
            pending.add(t.javaThreadId(), start, end, new JdkEvent(PINNED, 0, null, null, null));
        }
    }

    void onAllocationSample(JfrEvent e) {
        long start = e.startNanos();
        facts.jdkEvent(start, e.endNanos());
        long weight = JdkEventFields.weightBytes(e);
        sampledAllocBytes += weight;
        JfrThread t = e.thread();
        if (t != null) {
            // Stack and class are constant-pool objects, not part of the reused event: safe to keep.
            pending.add(t.javaThreadId(), start, start, new JdkEvent(ALLOCATION, weight,
                    JdkEventFields.objectClass(e), e.stackTrace(), null));
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
                    event.type() == null ? "?" : event.type().name(), event.weightBytes(), javaThreadId);
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
        String blocker = event.type() == null ? null : event.type().name();
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
    static String agentFrame(JfrStack stack) {
        if (stack == null) {
            return null;
        }
        for (JfrFrame f : stack.frames()) {
            if (!f.hasMethod() || f.typeName() == null) {
                continue;
            }
            String type = f.typeName();
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
