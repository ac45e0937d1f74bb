import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Test workload for offwake: a thread named hop-waiter blocks in CompletableFuture.get() and a thread
 * named hop-waker completes the future after a fixed delay, over and over.
 *
 * Usage: java HopWake.java [delayMs=20] [durationS=4]
 * With durationS 0 it runs until its standard input closes. Prints "ready PID" once both threads
 * run and "done N" after N round trips, then exits 0.
 */
public class HopWake {
    public static void main(String[] args) throws Exception {
        long delayMs = args.length > 0 ? Long.parseLong(args[0]) : 20;
        long durationS = args.length > 1 ? Long.parseLong(args[1]) : 4;
        // The waiter hands each fresh future to the waker through this queue, so the waker always
        // completes a future that the waiter is (about to be) parked on.
        SynchronousQueue<CompletableFuture<Long>> handoff = new SynchronousQueue<>();
        long endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(durationS);
        AtomicBoolean stdinOpen = new AtomicBoolean(true);
        if (durationS == 0) {
            // Lets a test end the run at a moment of its choosing (after its tracer is attached).
            Thread reader = new Thread(() -> {
                try {
                    while (System.in.read() >= 0) {
                        // discard
                    }
                } catch (java.io.IOException e) {
                    // treated as closed
                }
                stdinOpen.set(false);
            }, "hop-stdin");
            reader.setDaemon(true);
            reader.start();
        }
        int[] roundTrips = {0};
        Thread waker = new Thread(() -> {
            try {
                while (true) {
                    CompletableFuture<Long> future = handoff.take();
                    if (future.isDone()) {
                        return; // poison pill: the waiter is finished
                    }
                    // Busy-free sleep: the waiter's off-CPU time is this delay plus the wake path.
                    Thread.sleep(delayMs);
                    future.complete(System.nanoTime());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "hop-waker");
        Thread waiter = new Thread(() -> {
            try {
                while (durationS == 0 ? stdinOpen.get() : System.nanoTime() < endNanos) {
                    CompletableFuture<Long> future = new CompletableFuture<>();
                    handoff.put(future);
                    future.get();
                    roundTrips[0]++;
                }
                handoff.put(CompletableFuture.completedFuture(0L));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "hop-waiter");
        waker.start();
        waiter.start();
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        waiter.join();
        waker.join();
        System.out.println("done " + roundTrips[0]);
    }
}
