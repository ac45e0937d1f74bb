package io.hopscope.samples.common;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs an operation on N caller threads (platform or virtual, from the factory) in a closed loop (each starts its next request when
 * the last one returned): warmup by time, then a measured window bounded by time or by count.
 * The first failed operation stops every caller and is rethrown.
 */
public final class ClosedLoop {

    /** How long callers may take to finish their last request once the run is over. */
    private static final long JOIN_GRACE_NANOS = 120_000_000_000L;

    /** One request, validated; throws if the response is wrong. */
    @FunctionalInterface
    public interface Operation {
        void run() throws Exception;
    }

    private ClosedLoop() {
    }

    /**
     * @param count measured operations, or 0 to bound by {@code durationS}
     */
    public static void run(ThreadFactory callerThreads, int parallel, double warmupS, double durationS, long count,
                           RunFigures figures, Operation op) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong tickets = new AtomicLong();
        AtomicInteger warmCallers = new AtomicInteger();
        figures.loopStarted();
        long warmupEnd = figures.loopStartNanos() + (long) (warmupS * 1e9);
        if (warmupS <= 0) {
            figures.startMeasuring();
        }
        List<Thread> callers = new ArrayList<>();
        for (int i = 1; i <= parallel; i++) {
            Thread t = callerThreads.newThread(() -> {
                boolean warm = false;
                figures.callerStarted(Thread.currentThread());
                try {
                    while (failure.get() == null) {
                        if (count > 0 && figures.measuring() && tickets.incrementAndGet() > count) {
                            return;
                        }
                        // Only a request that started inside the window counts, so --count is exact.
                        boolean measured = figures.measuring();
                        long start = System.nanoTime();
                        try {
                            op.run();
                        } catch (ResponseCheckException e) {
                            throw e;
                        } catch (Exception e) {
                            // I/O and reactive errors are the target's or the network's, not ours.
                            throw new ResponseCheckException("request failed: " + e, e);
                        }
                        if (measured) {
                            figures.record(System.nanoTime() - start);
                        }
                        figures.completed();
                        if (!warm) {
                            warm = true;
                            warmCallers.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            callers.add(t);
            t.start();
        }
        if (figures.firstWindowS() > 0) {
            // Checked by ClosedLoopOptions: the first window ends inside the warmup.
            sleepUntil(figures.loopStartNanos() + (long) (figures.firstWindowS() * 1e9), failure);
            figures.endFirstWindow();
        }
        if (warmupS > 0) {
            sleepUntil(warmupEnd, failure);
            // A cold first request (class loading, connection setup) can outlast a short warmup on
            // a busy machine; measuring only starts once every caller has finished one.
            long warmDeadline = System.nanoTime() + JOIN_GRACE_NANOS;
            while (failure.get() == null && warmCallers.get() < parallel && System.nanoTime() < warmDeadline) {
                Thread.sleep(5);
            }
            figures.startMeasuring();
        }
        if (count == 0) {
            sleepUntil(System.nanoTime() + (long) (durationS * 1e9), failure);
            figures.stopMeasuring();
            stopFlag(failure);
        }
        long joinDeadline = System.nanoTime() + JOIN_GRACE_NANOS;
        for (Thread t : callers) {
            t.join(Math.max(1, (joinDeadline - System.nanoTime()) / 1_000_000));
            if (t.isAlive()) {
                throw new ResponseCheckException(t.getName() + " still had no response "
                        + JOIN_GRACE_NANOS / 1_000_000_000 + " s after the run ended");
            }
        }
        figures.stopMeasuring();
        Throwable t = failure.get();
        if (t instanceof StopSignal) {
            return;
        }
        if (t instanceof Exception) {
            throw (Exception) t;
        } else if (t != null) {
            throw (Error) t;
        }
    }

    private static void stopFlag(AtomicReference<Throwable> failure) {
        failure.compareAndSet(null, new StopSignal());
    }

    private static void sleepUntil(long deadlineNanos, AtomicReference<Throwable> failure) throws InterruptedException {
        long left;
        while (failure.get() == null && (left = deadlineNanos - System.nanoTime()) > 0) {
            Thread.sleep(Math.min(50, Math.max(1, left / 1_000_000)));
        }
    }

    /** Not a failure: tells the callers that the measured window is over. */
    private static final class StopSignal extends RuntimeException {
        StopSignal() {
            super("stop", null, false, false);
        }
    }
}
