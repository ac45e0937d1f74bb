package io.hopscope.agent.runtime;

import io.hopscope.agent.events.HopEvent;

/**
 * Writes Hop events: the one place a request's move from one thread to another is built. Each
 * event is allocated before its enabled check, the way JFR's own code does it (escape analysis
 * removes an event that is not written), and its delay is read only when it is written.
 */
final class HopEvents {

    private HopEvents() {
    }

    /** A task (or a capture) submitted on one thread starts on another, {@code to}. */
    static void handoff(HopTask task, Thread to) {
        HopEvent hop = new HopEvent();
        if (hop.isEnabled()) {
            // A scheduled task waits in the queue from when it is due: its delay is counted apart.
            long delayNanos = task.submitNanos == HopTask.NO_QUEUE ? 0 : System.nanoTime() - task.dueNanos;
            hop.scheduledNanos = task.scheduledNanos;
            hop.serverQueue = task.serverQueue;
            write(hop, task.request, "handoff", task.fromThread, to, delayNanos, task.via);
        }
    }

    /**
     * An inbound request that begins on {@code to} came out of its server's queue: handed over on
     * another thread before it began (see HopTask.Inbound); its delay runs to now.
     */
    static void serverQueue(RequestState request, HopTask.Inbound handedOver, Thread to) {
        HopEvent hop = new HopEvent();
        if (hop.isEnabled()) {
            hop.serverQueue = true;
            write(hop, request, "handoff", handedOver.fromThread, to, System.nanoTime() - handedOver.submitNanos,
                    handedOver.via);
        }
    }

    /** A thread ({@code to}) woken out of a wait on {@code via} by another ({@code waker}). */
    static void wake(RequestState request, Thread waker, Thread to, long wakeLatencyNanos, String via) {
        HopEvent hop = new HopEvent();
        if (hop.isEnabled()) {
            write(hop, request, "wake", waker, to, wakeLatencyNanos, via);
        }
    }

    /**
     * A thread ({@code to}) picked up a result on {@code via} that another ({@code from}) had completed,
     * without parking: it was there when it looked. The delay is from completion to pickup.
     */
    static void ret(RequestState request, Thread from, Thread to, long delayNanos, String via) {
        HopEvent hop = new HopEvent();
        if (hop.isEnabled()) {
            write(hop, request, "return", from, to, delayNanos, via);
        }
    }

    private static void write(HopEvent hop, RequestState request, String kind, Thread from, Thread to,
            long delayNanos, String via) {
        hop.requestId = request.id;
        hop.kind = kind;
        hop.fromThread = from;
        // Null when it is this thread, the event's own (every hop is written where it arrives, so
        // far): JDK 17 writes a Thread field through a native call (JVM.getThreadId, a JNI call and
        // a thread-list lookup), the most expensive part of a hop's commit.
        hop.toThread = to == Thread.currentThread() ? null : to;
        hop.delayNanos = delayNanos;
        hop.via = via;
        hop.commit();
    }
}
