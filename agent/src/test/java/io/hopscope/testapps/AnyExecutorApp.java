package io.hopscope.testapps;

import static io.hopscope.testapps.ReturnHopApp.awaitTrue;
import static io.hopscope.testapps.ReturnHopApp.isParked;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.ListeningExecutorService;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One request per executor that is not the JDK's and timing (args: {@code SCENARIO:before} or
 * {@code SCENARIO:parked}, as HandoverApp's): Guava's listening decorator, direct and sequential
 * executors, a hand-written executor delegating to another hand-written one, and a caller-runs
 * executor in the manner of an RPC client's blocking call (the caller parks in its own executor
 * until the I/O thread queues the response callback there and unparks it, then runs it). Each
 * request is a call of {@link #request}, a boundary (agent option requests=). Threads: pool (a
 * JDK pool behind Guava's executors), own-worker (a hand-written single-thread executor), io (the
 * RPC's I/O thread, another own executor).
 */
public final class AnyExecutorApp {

    /** The app's for its whole life (see HandoverApp's pools). */
    private static final ExecutorService POOL = Executors.newSingleThreadExecutor(r -> HandoverApp.daemon(r, "pool"));
    private static final OwnThreadExecutor OWN = new OwnThreadExecutor("own-worker");
    private static final OwnThreadExecutor IO = new OwnThreadExecutor("io");

    private AnyExecutorApp() {
    }

    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            String[] parts = arg.split(":");
            System.out.println("request " + arg + ": " + request(parts[0], parts[1].equals("parked")));
        }
    }

    /** A single-thread executor of its own: a queue and a thread, no JDK pool. */
    static final class OwnThreadExecutor implements Executor {
        private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();

        OwnThreadExecutor(String name) {
            Thread t = new Thread(() -> {
                while (true) {
                    try {
                        queue.take().run();
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        e.printStackTrace();
                    }
                }
            }, name);
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void execute(Runnable task) {
            queue.add(task);
        }
    }

    /** Hands every task to another executor. */
    static final class DelegatingExecutor implements Executor {
        private final Executor next;

        DelegatingExecutor(Executor next) {
            this.next = next;
        }

        @Override
        public void execute(Runnable task) {
            next.execute(task);
        }
    }

    /**
     * A caller-runs executor as RPC clients have them (gRPC's ThreadlessExecutor): tasks queue up
     * and wake the waiting caller, which runs them on its own thread.
     */
    static final class CallerRunsExecutor implements Executor {
        private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
        private final Thread waiter;

        CallerRunsExecutor(Thread waiter) {
            this.waiter = waiter;
        }

        @Override
        public void execute(Runnable task) {
            queue.add(task);
            LockSupport.unpark(waiter);
        }

        /** Runs what is queued; parks until something is when nothing is and {@code park}. */
        void drain(boolean park) {
            Runnable task = queue.poll();
            if (task == null && park) {
                LockSupport.park(this);
                task = queue.poll();
            }
            while (task != null) {
                task.run();
                task = queue.poll();
            }
        }
    }

    /** The boundary: hands work over the scenario's way and picks up its result. */
    public static Object request(String scenario, boolean parked) throws Exception {
        Thread caller = Thread.currentThread();
        Runnable gate = () -> {
            if (parked) {
                awaitTrue(() -> isParked(caller));
            }
        };
        switch (scenario) {
            case "listening": {
                ListeningExecutorService listening = MoreExecutors.listeningDecorator(POOL);
                ListenableFuture<String> f = listening.submit(() -> {
                    gate.run();
                    return Thread.currentThread().getName();
                });
                if (!parked) {
                    awaitTrue(f::isDone);
                }
                return f.get();
            }
            case "direct": {
                AtomicReference<String> ran = new AtomicReference<>();
                MoreExecutors.directExecutor().execute(() -> ran.set(Thread.currentThread().getName()));
                return ran.get();
            }
            case "sequential":
                return pickUp(MoreExecutors.newSequentialExecutor(POOL), gate, parked);
            case "delegating":
                return pickUp(new DelegatingExecutor(OWN), gate, parked);
            case "callerRuns": {
                // The blocking call: the request goes to the I/O thread, whose response callback is
                // queued in the caller's own executor; parked: the caller waits in it, woken by the
                // queueing; before: the callback is queued (and the caller unparked) before it looks.
                CallerRunsExecutor callerRuns = new CallerRunsExecutor(caller);
                AtomicReference<String> response = new AtomicReference<>();
                AtomicBoolean queued = new AtomicBoolean();
                IO.execute(() -> {
                    gate.run();
                    String from = Thread.currentThread().getName();
                    callerRuns.execute(() -> response.set("response from " + from));
                    queued.set(true);
                });
                if (!parked) {
                    while (!queued.get()) {
                        Thread.onSpinWait(); // no park: nothing for the I/O thread's unpark to wake
                    }
                }
                while (response.get() == null) {
                    callerRuns.drain(parked);
                }
                return response.get();
            }
            default:
                throw new IllegalArgumentException(scenario);
        }
    }

    /** Runs a task on {@code executor} that completes a future, picked up after it or while parked. */
    private static String pickUp(Executor executor, Runnable gate, boolean parked) throws Exception {
        CompletableFuture<String> f = new CompletableFuture<>();
        executor.execute(() -> {
            gate.run();
            f.complete(Thread.currentThread().getName());
        });
        if (!parked) {
            awaitTrue(f::isDone);
        }
        return f.get();
    }
}
