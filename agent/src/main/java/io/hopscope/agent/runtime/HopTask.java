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

    HopTask(Handoffs handoffs, RequestState request, long spanId, int childDepth, Thread fromThread,
            long submitNanos, String via) {
        this.handoffs = handoffs;
        this.request = request;
        this.spanId = spanId;
        this.childDepth = childDepth;
        this.fromThread = fromThread;
        this.submitNanos = submitNanos;
        this.via = via;
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
