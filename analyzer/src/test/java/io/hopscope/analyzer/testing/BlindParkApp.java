package io.hopscope.analyzer.testing;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * An application for {@code BlindSpotIT}, run under the agent on a JVM of its own with both methods
 * named as {@code requests=} boundaries: {@link #parkRaw} parks on a bare {@code LockSupport.park}
 * until a thread outside any request unparks it, {@link #DELAY_MILLIS} after it saw it parked, which
 * no hop or wait of hopscope can explain; {@link #knownWait} waits as long in {@code FutureTask.get}, a
 * wait the agent knows, for a pool thread that sleeps that long once it saw the request parked.
 */
public final class BlindParkApp {

    /** What the park waits on, so the report can be checked for its name. */
    public static final class Blocker {
    }

    /** Over the agent's jdk.ThreadPark threshold (10 ms in hopscope.jfc), so every such park is recorded. */
    public static final long DELAY_MILLIS = 50;

    private BlindParkApp() {
    }

    /** Usage: {@code BlindParkApp COUNT}: COUNT requests of each kind, alternating. */
    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        Unparker unparker = new Unparker();
        unparker.start(); // before any request: its work is outside every request
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "blind-worker"));
        try {
            for (int i = 0; i < count; i++) {
                parkRaw(unparker);
                knownWait(pool);
            }
        } finally {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
            unparker.interrupt();
            unparker.join();
        }
        System.out.println("done: " + count);
    }

    /** A request that parks until the unparker, outside the request, lets it go. */
    public static void parkRaw(Unparker unparker) {
        AtomicBoolean go = new AtomicBoolean();
        unparker.jobs.add(new Job(Thread.currentThread(), go));
        Blocker blocker = new Blocker();
        while (!go.get()) {
            LockSupport.park(blocker);
        }
    }

    /** A request that waits for a pool thread in FutureTask.get: a wait and a wake hop explain its park. */
    public static String knownWait(ExecutorService pool) throws Exception {
        Thread caller = Thread.currentThread();
        return pool.submit(() -> {
            // As the unparker does: wait until the caller is in its park (get's is timed), so that the
            // whole delay is parked time however late the caller got there.
            while (caller.getState() != Thread.State.TIMED_WAITING) {
                Thread.sleep(1);
            }
            Thread.sleep(DELAY_MILLIS);
            return "ok";
        }).get(10, TimeUnit.SECONDS);
    }

    private record Job(Thread parked, AtomicBoolean go) {
    }

    /** Unparks each request's thread {@link #DELAY_MILLIS} after it is parked; never in a request itself. */
    static final class Unparker extends Thread {
        // Lock-free, and polled: handing a job over never parks the request's thread.
        final ConcurrentLinkedQueue<Job> jobs = new ConcurrentLinkedQueue<>();

        Unparker() {
            super("blind-unparker");
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (true) {
                    Job job = jobs.poll();
                    if (job == null) {
                        Thread.sleep(1);
                        continue;
                    }
                    // Wait until the thread is in its park, so that the whole delay is parked time.
                    while (job.parked().getState() != State.WAITING) {
                        Thread.sleep(1);
                    }
                    Thread.sleep(DELAY_MILLIS);
                    job.go().set(true);
                    LockSupport.unpark(job.parked());
                }
            } catch (InterruptedException end) {
                // main is done
            }
        }
    }
}
