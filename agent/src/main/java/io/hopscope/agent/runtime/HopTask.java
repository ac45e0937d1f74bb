package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.events.RequestEvent;
import java.util.concurrent.Callable;

/**
 * A task handed to an executor while a request was current: it carries the request to the thread
 * that runs it, where it records the handoff and a task segment.
 */
abstract class HopTask {

    final RequestState request;
    final long spanId;
    final int childDepth;
    final Thread fromThread;
    /**
     * The submitting thread's state: the thread that runs this task tells it when it hands the
     * request over again after its last way back (see Handoffs#taskStart).
     */
    final ThreadState fromState;
    final long submitNanos;
    final String via;
    /** submitNanos of a capture picked up when its I/O was ready: no queue delay is measured. */
    static final long NO_QUEUE = Long.MIN_VALUE;

    /**
     * A scheduled task's delay before its next run (0 for a task due at once), when that run is due
     * (the queue delay counts from then), and its period: 0 runs once, positive at a fixed rate,
     * negative that long after each run ends. Written by the thread that runs the task, read by the
     * next: the scheduler's queue orders the two.
     */
    long scheduledNanos;
    long dueNanos;
    long periodNanos;
    /**
     * The future that runs this task and is completed right after it (a scheduler's), or null: it
     * is recorded as completed by this task's thread before it is visible as done (see
     * Waits#onComplete), since its completion comes after the task, out of the request. A periodic
     * task's future completes only when a run throws. Set before the task is queued.
     */
    Object future;
    /**
     * Whether this is a server's hand-over of an inbound request to the thread that runs it (its
     * queue): its hop says so. Set before the task is queued.
     */
    boolean serverQueue;
    /**
     * Whether this task was handed to an Executor (its execute, submit or schedule), not over by a
     * library without one (a capture, an attached task): run by a thread already working on the
     * request, it is the way back to it (Handoffs#taskStart). Set before the task is queued.
     */
    boolean handedToExecutor;

    HopTask(RequestState request, long spanId, int childDepth, ThreadState from,
            long submitNanos, String via) {
        this.request = request;
        this.spanId = spanId;
        this.childDepth = childDepth;
        this.fromThread = from.thread;
        this.fromState = from;
        this.submitNanos = submitNanos;
        this.via = via;
        this.dueNanos = submitNanos;
    }

    /** This task is due {@code delayNanos} after its submission, then every {@code periodNanos}. */
    final void scheduled(long delayNanos, long periodNanos) {
        this.scheduledNanos = Math.max(0, delayNanos);
        this.dueNanos = submitNanos + scheduledNanos;
        this.periodNanos = periodNanos;
    }

    /** A periodic task's run ended: the next is due one period after this one was (or after it ended). */
    final void nextRun() {
        scheduledNanos = Math.abs(periodNanos);
        dueNanos = periodNanos > 0 ? dueNanos + periodNanos : System.nanoTime() - periodNanos;
    }

    /** The run ends (threw: with an exception): the future that ran it, if any, is about to complete. */
    final void completing(boolean threw) {
        if (future != null && (threw || periodNanos == 0)) {
            // Called in the task's finally, outside the Bridge: a failure here would replace the
            // task's own result or exception.
            try {
                Waits.completing(future);
            } catch (Throwable t) {
                AgentErrors.report("executors", t);
            }
        }
    }

    /** A capture without a task: work a library hands over in its own objects (a pool's borrower). */
    static final class Captured extends HopTask {
        Captured(RequestState request, long spanId, int childDepth, ThreadState from,
                long submitNanos, String via) {
            super(request, spanId, childDepth, from, submitNanos, via);
        }
    }

    /**
     * A server's task handed over before any request has begun (Tomcat's poller hands a socket's
     * processing to its executor; the request begins in it, when the server reads its head): the
     * request, if the task begins one, starts at the hand-over. Its Request event is begun here, so
     * that its start is the hand-over's; the first request the task begins takes it (see
     * Servers#serverEnter), with the hop out of the queue. A task that begins none drops both.
     */
    static final class Inbound implements Runnable {

        final Runnable delegate;
        final Thread fromThread;
        final long submitNanos;
        final String via;
        final RequestEvent event;

        Inbound(Runnable delegate, Thread fromThread, long submitNanos, String via) {
            this.delegate = delegate;
            this.fromThread = fromThread;
            this.submitNanos = submitNanos;
            this.via = via;
            this.event = new RequestEvent();
            this.event.begin();
        }

        @Override
        public void run() {
            ThreadState s = ThreadContexts.state();
            Inbound outer = s.inbound;
            s.inbound = this;
            try {
                delegate.run();
            } finally {
                s.inbound = outer;
            }
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }

    /** The Runnable form. */
    static final class OfRunnable extends HopTask implements Runnable {

        final Runnable delegate;

        OfRunnable(Runnable delegate, RequestState request, long spanId, int childDepth,
                ThreadState from, long submitNanos, String via) {
            super(request, spanId, childDepth, from, submitNanos, via);
            this.delegate = delegate;
        }

        @Override
        public void run() {
            if (periodNanos != 0 && request.hasEnded()) {
                delegate.run(); // a periodic task's runs after its request ended are in no request
                return;
            }
            Object scope = Bridge.wrappedTaskEnter(this);
            boolean threw = true;
            try {
                delegate.run();
                threw = false;
            } finally {
                completing(threw);
                Bridge.contextExit(scope);
            }
        }

        @Override
        public String toString() {
            // Executors and their rejection messages print tasks: show the application's own.
            return delegate.toString();
        }
    }

    /** The Callable form. */
    static final class OfCallable<V> extends HopTask implements Callable<V> {

        final Callable<V> delegate;

        OfCallable(Callable<V> delegate, RequestState request, long spanId, int childDepth,
                ThreadState from, long submitNanos, String via) {
            super(request, spanId, childDepth, from, submitNanos, via);
            this.delegate = delegate;
        }

        @Override
        public V call() throws Exception {
            Object scope = Bridge.wrappedTaskEnter(this);
            try {
                return delegate.call();
            } finally {
                completing(true);
                Bridge.contextExit(scope);
            }
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
