package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.threads.SegmentWindow;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.read.JdkEventFields;
import io.hopscope.analyzer.read.JfrEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * Joins lock contention, monitor waits, virtual threads' pinning and allocation samples to the request whose segment they
 * fall in (parks and monitor waits and enters also as the request's possible blind spots, {@link BlindSpots}). A JDK event
 * inside a segment comes before that segment in the file (it is committed earlier, on the same
 * thread), so each waits in a pending list and is joined at a flush point against the
 * {@link SegmentWindow}; one whose segment has not come {@link #PENDING_LAG} flush points later is dropped.
 */
final class JdkEventAttribution {

    // A JDK event waits longer for its segment than a request waits for its stragglers
    // (RecordingAnalyzer's FINISH_LAG), since a long segment may commit later.
    private static final int PENDING_LAG = 4;

    /** A JDK event waiting for the segment it falls in (which the file gives later). */
    private record PendingJdk(int kind, long javaThreadId, long startNanos, long endNanos, long weightBytes,
                              RecordedClass type, RecordedStackTrace stack, ThreadRef waker, long flush) {
    }

    private static final int MONITOR = 0;
    private static final int PARK = 1;
    private static final int ALLOCATION = 2;
    private static final int PINNED = 3;
    private static final int MONITOR_WAIT = 4;

    private final RecordingFacts facts;
    private final JfrEvents jfr;
    private final SegmentWindow<RequestInProgress> window;
    private List<PendingJdk> pending = new ArrayList<>();
    private long flushes;
    private long sampledAllocBytes;
    private long sampledAllocBytesInRequests;

    JdkEventAttribution(RecordingFacts facts, JfrEvents jfr, SegmentWindow<RequestInProgress> window) {
        this.facts = facts;
        this.jfr = jfr;
        this.window = window;
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
        pending.add(new PendingJdk(kind, t.getJavaThreadId(), start, end, 0,
                blocker.apply(e), e.getStackTrace(), waker == null ? null : jfr.thread(waker.apply(e)), flushes));
    }

    /** A virtual thread parked or blocked pinned to its carrier (JDK 21+; the event's thread is the virtual one). */
    void onPinned(RecordedEvent e) {
        long start = JfrEvents.startNanos(e);
        long end = JfrEvents.endNanos(e);
        facts.jdkEvent(start, end);
        RecordedThread t = e.getThread();
        if (t != null && end > start) {
            pending.add(new PendingJdk(PINNED, t.getJavaThreadId(), start, end, 0, null, null, null, flushes));
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
            pending.add(new PendingJdk(ALLOCATION, t.getJavaThreadId(), start, start, weight,
                    JdkEventFields.objectClass(e), e.getStackTrace(), null, flushes));
        }
    }

    /** At flush point {@code flush}: joins what waited, keeping what may still find its segment. */
    void onFlush(long flush) {
        flushes = flush;
        join(false);
    }

    /** At the end of the file: joins what can be, drops the rest. */
    void joinRemaining() {
        join(true);
    }

    private void join(boolean last) {
        if (pending.isEmpty()) {
            return;
        }
        window.sort();
        List<PendingJdk> keep = new ArrayList<>();
        for (PendingJdk p : pending) {
            RequestInProgress r = window.find(p.javaThreadId(), p.startNanos(), p.kind() == ALLOCATION ? p.startNanos() : p.endNanos());
            if (r != null && !r.finished) {
                attribute(p, r);
            } else if (!last && p.flush() > flushes - PENDING_LAG) {
                keep.add(p); // its segment may still come
            }
        }
        pending = keep;
    }

    private void attribute(PendingJdk p, RequestInProgress r) {
        if (p.kind() == ALLOCATION) {
            String agentFrame = agentFrame(p.stack());
            if (agentFrame == null) {
                sampledAllocBytesInRequests += p.weightBytes();
            }
            r.addAllocationSample(agentFrame != null ? agentFrame : JfrEvents.topFrame(p.stack()),
                    p.type() == null ? "?" : p.type().getName(), p.weightBytes(), p.javaThreadId());
            return;
        }
        long overlap = window.overlapNanos(p.javaThreadId(), p.startNanos(), p.endNanos(), r);
        if (overlap <= 0) {
            return;
        }
        if (p.kind() == PINNED) {
            r.addPinned(overlap);
            return;
        }
        String blocker = p.type() == null ? null : p.type().getName();
        r.blind().addParked(p.kind() == PARK ? BlindSpots.PARK : p.kind() == MONITOR ? BlindSpots.MONITOR_ENTER
                : BlindSpots.MONITOR_WAIT, p.javaThreadId(), p.startNanos(), p.endNanos(), overlap, blocker, p.stack(), p.waker());
        if (p.kind() == MONITOR_WAIT) {
            return;
        }
        r.addLock(p.kind() == MONITOR ? "monitor" : "park", blocker == null ? "?" : blocker, overlap,
                p.endNanos() - p.startNanos(), () -> JfrEvents.stack(p.stack(), 6));
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
