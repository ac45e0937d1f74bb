package io.hopscope.agent.runtime;

import java.util.concurrent.Callable;

/**
 * A task handed to an executor while a request was current: it carries the request to the thread
 * that runs it, where it records the handoff and a task segment.
 */
abstract class HopTask {

    final Handoffs handoffs;
    final RequestState request;
    final long spanId;
    final int childDepth;
    final Thread fromThread;
    final long submitNanos;
    final String via;
    /** submitNanos of a capture picked up when its I/O was ready: no queue delay is measured. */
    static final long NO_QUEUE = Long.MIN_VALUE;

    /**
     * A scheduled task's delay before its next run (0 for a task due at once), when that run is due
     * (the queue delay counts from then), and its period: 0 runs once, positive at a fixed rate,
     * negative that long after each run ends. Written by the thread that runs the task, read by the
     * next: the scheduler's queue orders the two. Only an attached task is scheduled (see
     * Handoffs#attachTask): the scheduler's own task is the one that completes its future.
     */
    long scheduledNanos;
    long dueNanos;
    long periodNanos;

    HopTask(Handoffs handoffs, RequestState request, long spanId, int childDepth, Thread fromThread,
            long submitNanos, String via) {
        this.handoffs = handoffs;
        this.request = request;
        this.spanId = spanId;
        this.childDepth = childDepth;
        this.fromThread = fromThread;
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

    /** A capture without a task: work a library hands over in its own objects (a pool's borrower). */
    static final class Captured extends HopTask {
        Captured(Handoffs handoffs, RequestState request, long spanId, int childDepth, Thread fromThread,
                long submitNanos, String via) {
            super(handoffs, request, spanId, childDepth, fromThread, submitNanos, via);
        }
    }

    /** The Runnable form. */
    static final class OfRunnable extends HopTask implements Runnable {

        final Runnable delegate;

        OfRunnable(Handoffs handoffs, Runnable delegate, RequestState request, long spanId, int childDepth,
                Thread fromThread, long submitNanos, String via) {
            super(handoffs, request, spanId, childDepth, fromThread, submitNanos, via);
            this.delegate = delegate;
        }

        @Override
        public void run() {
            Object scope = handoffs.taskStart(this);
            try {
                delegate.run();
            } finally {
                handoffs.taskEnd(scope);
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

        OfCallable(Handoffs handoffs, Callable<V> delegate, RequestState request, long spanId, int childDepth,
                Thread fromThread, long submitNanos, String via) {
            super(handoffs, request, spanId, childDepth, fromThread, submitNanos, via);
            this.delegate = delegate;
        }

        @Override
        public V call() throws Exception {
            Object scope = handoffs.taskStart(this);
            try {
                return delegate.call();
            } finally {
                handoffs.taskEnd(scope);
            }
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
