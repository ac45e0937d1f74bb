package io.hopscope.testapps;

import static io.hopscope.testapps.ReturnHopApp.awaitTrue;
import static io.hopscope.testapps.ReturnHopApp.isParked;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.ListeningExecutorService;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One request per executor that is not the JDK's and timing (args: {@code SCENARIO:before} or
 * {@code SCENARIO:parked}, as HandoverApp's): Guava's listening decorator, direct and sequential
 * executors, a hand-written executor delegating to another hand-written one, and a caller-runs
 * executor in the manner of an RPC client's blocking call (the caller parks in its own executor
 * until the I/O thread queues the response callback there and unparks it, then runs it). The
 * caller-runs executor takes every order of the caller's drain and the response: queued before
 * the caller drains ({@code before}); the caller drains, finds nothing and parks, then the
 * response is queued ({@code parked}); the caller drains and finds nothing, the response is queued
 * and the caller unparked, then it parks, which returns at once ({@code unparked}); and a response
 * in three pieces ({@code callerRunsPieces}), all queued before the drain, or each once the caller
 * is parked again. Each request is a call of {@link #request}, a boundary (agent option
 * requests=). Threads: pool (a JDK pool behind Guava's executors), own-worker (a hand-written
 * single-thread executor), io (the RPC's I/O thread, another own executor).
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
            System.out.println("request " + arg + ": " + request(parts[0], parts[1]));
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
        /** Set while the caller has found nothing and waits, before it parks, for {@code delivered}. */
        volatile boolean foundNothing;

        CallerRunsExecutor(Thread waiter) {
            this.waiter = waiter;
        }

        @Override
        public void execute(Runnable task) {
            queue.add(task);
            LockSupport.unpark(waiter);
        }

        /**
         * Runs what is queued; when nothing is and {@code park}, parks until something is, after
         * waiting (without parking) for {@code delivered} if given: the response is then queued and
         * the caller unparked before it parks.
         */
        void drain(boolean park, BooleanSupplier delivered) {
            Runnable task = queue.poll();
            if (task == null && park) {
                if (delivered != null) {
                    foundNothing = true;
                    while (!delivered.getAsBoolean()) {
                        Thread.onSpinWait(); // no park: the unpark comes before it
                    }
                    foundNothing = false;
                }
                LockSupport.park(this);
                task = queue.poll();
            }
            while (task != null) {
                task.run();
                task = queue.poll();
            }
        }
    }

    /** Whether {@code t} is parked on {@code blocker} itself (not in some other park). */
    static boolean isParkedOn(Thread t, Object blocker) {
        return t.getState() == Thread.State.WAITING && LockSupport.getBlocker(t) == blocker;
    }

    /** The boundary: hands work over the scenario's way and picks up its result. */
    public static Object request(String scenario, String timing) throws Exception {
        Thread caller = Thread.currentThread();
        boolean parked = timing.equals("parked");
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
            case "callerRuns":
            case "callerRunsPieces":
                return callerRuns(caller, scenario.equals("callerRuns") ? 1 : 3, timing);
            default:
                throw new IllegalArgumentException(scenario);
        }
    }

    /**
     * The blocking call: the request goes to the I/O thread, which queues the response in the
     * caller's own executor, in {@code pieces} callbacks, each with an unpark of the caller, at the
     * timing's moment (see the class comment); the caller drains the executor until it has them all.
     */
    private static String callerRuns(Thread caller, int pieces, String timing) {
        CallerRunsExecutor callerRuns = new CallerRunsExecutor(caller);
        List<String> response = new CopyOnWriteArrayList<>();
        AtomicInteger queued = new AtomicInteger();
        IO.execute(() -> {
            String from = Thread.currentThread().getName();
            for (int i = 1; i <= pieces; i++) {
                int before = i - 1;
                if (timing.equals("parked")) {
                    // Parked again, after the piece before: not still in the park that piece ends.
                    awaitTrue(() -> response.size() == before && isParkedOn(caller, callerRuns));
                } else if (timing.equals("unparked")) {
                    awaitTrue(() -> callerRuns.foundNothing);
                }
                int piece = i;
                callerRuns.execute(() -> response.add("piece " + piece + " from " + from));
                queued.incrementAndGet();
            }
        });
        if (timing.equals("before")) {
            while (queued.get() < pieces) {
                Thread.onSpinWait(); // no park: nothing for the I/O thread's unpark to wake
            }
        }
        while (response.size() < pieces) {
            int expected = response.size() + 1;
            callerRuns.drain(true, timing.equals("unparked") ? () -> queued.get() >= expected : null);
        }
        return String.join(", ", response);
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
