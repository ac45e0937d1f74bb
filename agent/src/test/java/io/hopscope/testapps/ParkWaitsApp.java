package io.hopscope.testapps;

import static io.hopscope.testapps.ReturnHopApp.awaitTrue;
import static io.hopscope.testapps.ReturnHopApp.isParked;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One request per wait that hopscope knows by no name of its own but by the park it ends in, or by
 * its own rule (Thread.join), and timing (args {@code SCENARIO:before|parked}, as HandoverApp's):
 * the caller hands work to the worker (a JDK single-thread executor, thread "worker"; for join a
 * thread of its own, "joined") and waits on a CountDownLatch, a Semaphore, a SynchronousQueue or
 * the thread's end, which the worker releases once the caller is seen waiting ({@code parked}) or
 * before the caller waits ({@code before}). Each request is a call of {@link #request}, a boundary.
 */
public final class ParkWaitsApp {

    /** The app's for its whole life (see HandoverApp's pools). */
    private static final ExecutorService WORKER = Executors.newSingleThreadExecutor(r -> HandoverApp.daemon(r, "worker"));

    private ParkWaitsApp() {
    }

    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            String[] parts = arg.split(":");
            System.out.println("request " + arg + ": " + request(parts[0], parts[1].equals("parked")));
        }
    }

    /** Waiting, in a park or on a monitor (a platform thread's join waits on the thread's monitor). */
    static boolean isWaiting(Thread t) {
        Thread.State state = t.getState();
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    /** The boundary: the caller waits the scenario's way for the worker. */
    public static Object request(String scenario, boolean parked) throws Exception {
        Thread caller = Thread.currentThread();
        AtomicReference<String> by = new AtomicReference<>();
        switch (scenario) {
            case "CountDownLatch.await": {
                CountDownLatch latch = new CountDownLatch(1);
                WORKER.execute(() -> {
                    awaitWhen(parked, caller);
                    by.set(Thread.currentThread().getName());
                    latch.countDown();
                });
                if (!parked) {
                    awaitTrue(() -> latch.getCount() == 0);
                }
                latch.await();
                return by.get();
            }
            case "Semaphore.acquire": {
                Semaphore semaphore = new Semaphore(0);
                WORKER.execute(() -> {
                    awaitWhen(parked, caller);
                    by.set(Thread.currentThread().getName());
                    semaphore.release();
                });
                if (!parked) {
                    awaitTrue(() -> semaphore.availablePermits() == 1);
                }
                semaphore.acquire();
                return by.get();
            }
            case "SynchronousQueue.take": {
                // Parked only: a synchronous queue has no "before", its put waits for the take.
                SynchronousQueue<String> queue = new SynchronousQueue<>();
                WORKER.execute(() -> {
                    awaitTrue(() -> isParked(caller));
                    try {
                        queue.put(Thread.currentThread().getName());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                return queue.take();
            }
            case "Thread.join": {
                Thread joined = new Thread(() -> {
                    if (parked) {
                        awaitTrue(() -> isWaiting(caller));
                    }
                    by.set(Thread.currentThread().getName());
                }, "joined");
                joined.start();
                if (!parked) {
                    awaitTrue(() -> !joined.isAlive());
                }
                joined.join();
                return by.get();
            }
            default:
                throw new IllegalArgumentException(scenario);
        }
    }

    private static void awaitWhen(boolean parked, Thread caller) {
        if (parked) {
            awaitTrue(() -> isParked(caller));
        }
    }
}
