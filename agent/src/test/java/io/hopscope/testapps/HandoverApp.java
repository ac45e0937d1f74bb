package io.hopscope.testapps;

import static io.hopscope.testapps.ReturnHopApp.awaitTrue;
import static io.hopscope.testapps.ReturnHopApp.isParked;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One request per hand-over and timing (args: {@code SCENARIO:before} or {@code SCENARIO:parked}):
 * the caller hands work to another thread through fork/join, a CompletableFuture's async stages or
 * a scheduler, and picks its result up either after it was completed ({@code before}) or while
 * parked in the wait ({@code parked}: the work completes only once the caller is seen parked).
 * Each request is a call of {@link #request}, a boundary (agent option requests=). The threads are
 * named: fj-worker (a one-worker ForkJoinPool), async (a one-thread executor), sched (a one-thread
 * scheduler); the common pool's and CompletableFuture's default threads are the JDK's.
 */
public final class HandoverApp {

    // The pools are the app's for its whole life, their threads daemons, never shut down: its main may
    // run more than once in a JVM (io.hopscope.testapps.ChaosApp runs it once per seed).
    private static final ForkJoinPool POOL = new ForkJoinPool(1, pool -> {
        ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        t.setName("fj-worker");
        return t;
    }, null, false);
    private static final ExecutorService ASYNC = Executors.newSingleThreadExecutor(r -> daemon(r, "async"));
    private static final ScheduledExecutorService SCHED = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "sched"));

    /** The delay of the scheduled scenarios' tasks, and the period of the periodic ones. */
    public static final long DELAY_MILLIS = 20;
    public static final long PERIOD_MILLIS = 5;
    /** A periodic task that outlives its request: its period, long enough for the request to end first. */
    public static final long LONG_PERIOD_MILLIS = 200;

    /** What knownVirtual's worker allocates, how long it sleeps, and how long it is pinned. */
    public static final int KNOWN_BYTES = 1 << 20;
    public static final long KNOWN_SLEEP_MILLIS = 30;
    public static final long PINNED_MILLIS = 25;

    /** Parks in its initializer: a virtual thread that initializes it is pinned meanwhile. */
    static final class PinningInit {
        static final int VALUE;

        static {
            try {
                Thread.sleep(PINNED_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            VALUE = 0;
        }
    }

    /** A scenario name's prefix that runs it on a virtual caller thread (JDK 21+). */
    static final String ON_VIRTUAL = "onVirtual-";
    /** JDK 21's Thread.Builder, or null before it. */
    private static final Class<?> BUILDER = builderClass();

    /** What a scenario leaves to do after its request, outside it (cancel a periodic task after more runs). */
    private static final List<Runnable> AFTER = new ArrayList<>();

    private HandoverApp() {
    }

    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            String[] parts = arg.split(":");
            boolean parked = parts[1].equals("parked");
            Object[] value = new Object[1];
            if (parts[0].startsWith(ON_VIRTUAL)) {
                // JDK 21+: the request runs on a virtual caller thread.
                Thread caller = (Thread) BUILDER.getMethod("start", Runnable.class).invoke(virtualBuilder("vcaller-"),
                        (Runnable) () -> value[0] = requestQuietly(parts[0].substring(ON_VIRTUAL.length()), parked));
                caller.join();
            } else {
                value[0] = request(parts[0], parked);
            }
            System.out.println("request " + arg + ": " + value[0]);
            AFTER.forEach(Runnable::run);
            AFTER.clear();
        }
    }

    /** A daemon thread named {@code name} that runs {@code task}. */
    static Thread daemon(Runnable task, String name) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        return t;
    }

    /** A fork/join task that returns the name of the thread it ran on, after the caller's gate. */
    static final class NameTask extends RecursiveTask<String> {
        final AtomicBoolean started = new AtomicBoolean();
        final Runnable gate;

        NameTask(Runnable gate) {
            this.gate = gate;
        }

        @Override
        protected String compute() {
            started.set(true);
            gate.run();
            return Thread.currentThread().getName();
        }
    }

    /** A task that forks a subtask and joins it at once: on a one-worker pool the worker runs it inline. */
    static final class ForkInlineTask extends RecursiveTask<String> {
        final Runnable gate;

        ForkInlineTask(Runnable gate) {
            this.gate = gate;
        }

        @Override
        protected String compute() {
            NameTask inner = new NameTask(() -> { });
            inner.fork();
            String name = inner.join();
            gate.run();
            return name;
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
            case "fork": {
                NameTask task = new NameTask(gate);
                task.fork(); // from a thread outside any pool: to the common pool
                // Taken by a worker before the join looks, so that the join cannot run it inline.
                awaitTrue(task.started::get);
                lookWhenDone(task, parked);
                return task.join();
            }
            case "submit": {
                NameTask task = new NameTask(gate);
                POOL.submit(task);
                lookWhenDone(task, parked);
                return task.get();
            }
            case "submitRunnable": {
                AtomicBoolean ran = new AtomicBoolean();
                Future<?> f = POOL.submit(() -> {
                    gate.run();
                    ran.set(true);
                });
                lookWhenDone(f, parked);
                f.get();
                return ran.get();
            }
            case "submitCallable": {
                Future<String> f = POOL.submit(() -> {
                    gate.run();
                    return Thread.currentThread().getName();
                });
                lookWhenDone(f, parked);
                return f.get();
            }
            case "execute": {
                NameTask task = new NameTask(gate);
                POOL.execute(task);
                lookWhenDone(task, parked);
                task.quietlyJoin();
                return task.getRawResult();
            }
            case "invoke":
                return POOL.invoke(new NameTask(gate));
            case "forkInline":
                return POOL.invoke(new ForkInlineTask(gate));
            case "supplyAsync": {
                CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> {
                    gate.run();
                    return Thread.currentThread().getName();
                });
                lookWhenDone(f, parked);
                return f.get();
            }
            case "runAsync": {
                AtomicBoolean ran = new AtomicBoolean();
                CompletableFuture<Void> f = CompletableFuture.runAsync(() -> {
                    gate.run();
                    ran.set(true);
                }, ASYNC);
                lookWhenDone(f, parked);
                f.join();
                return ran.get();
            }
            case "stages": {
                // Every stage is in place before the first completes, so that each is handed over by
                // the thread that completed the stage before it: to a fork/join pool (the stage is a
                // ForkJoinTask itself) and back to the executor.
                AtomicBoolean chained = new AtomicBoolean();
                CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> {
                    awaitTrue(chained::get);
                    return Thread.currentThread().getName();
                }, ASYNC).thenApplyAsync(s -> s + " " + Thread.currentThread().getName(), POOL)
                        .thenApplyAsync(s -> {
                            gate.run();
                            return s + " " + Thread.currentThread().getName();
                        }, ASYNC);
                chained.set(true);
                lookWhenDone(f, parked);
                return f.join();
            }
            case "schedule": {
                ScheduledFuture<String> f = SCHED.schedule(() -> {
                    gate.run();
                    return Thread.currentThread().getName();
                }, DELAY_MILLIS, TimeUnit.MILLISECONDS);
                lookWhenDone(f, parked);
                return f.get();
            }
            case "fixedRate":
            case "fixedDelay": {
                // The third run throws, which ends a periodic task: exactly three runs.
                AtomicInteger runs = new AtomicInteger();
                Runnable work = () -> {
                    if (runs.incrementAndGet() == 3) {
                        gate.run();
                        throw new IllegalStateException("third run");
                    }
                };
                ScheduledFuture<?> f = scenario.equals("fixedRate")
                        ? SCHED.scheduleAtFixedRate(work, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS)
                        : SCHED.scheduleWithFixedDelay(work, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
                lookWhenDone(f, parked);
                try {
                    f.get();
                    throw new IllegalStateException("the periodic task did not fail");
                } catch (ExecutionException expected) {
                    return runs.get();
                }
            }
            case "periodicOutlives": {
                // Runs once in the request, then after it (the request has ended by the next run).
                AtomicInteger runs = new AtomicInteger();
                ScheduledFuture<?> f = SCHED.scheduleAtFixedRate(runs::incrementAndGet, 0, LONG_PERIOD_MILLIS,
                        TimeUnit.MILLISECONDS);
                awaitTrue(() -> runs.get() >= 1);
                AFTER.add(() -> {
                    awaitTrue(() -> runs.get() >= 3);
                    f.cancel(false);
                });
                return runs.get();
            }
            case "newThread": {
                // A thread started for this request; it stays until the caller has picked its result
                // up, so that the way back names it (JDK 17 writes a thread that has ended as null).
                CompletableFuture<String> f = new CompletableFuture<>();
                AtomicBoolean pickedUp = new AtomicBoolean();
                Thread t = new Thread(() -> {
                    gate.run();
                    f.complete(Thread.currentThread().getName() + " " + new byte[64 * 1024].length);
                    awaitTrue(pickedUp::get);
                }, "spawned");
                t.start();
                lookWhenDone(f, parked);
                String value = f.get();
                pickedUp.set(true);
                // Not joined: a join on a thread of the request is a way back of its own, whose
                // timing this scenario does not force (ParkWaitsApp's Thread.join does).
                awaitTrue(() -> !t.isAlive());
                return value;
            }
            case "virtualPerTask": {
                // JDK 21+: a thread-per-task executor of named virtual threads.
                ExecutorService perTask = (ExecutorService) Executors.class.getMethod("newThreadPerTaskExecutor",
                        ThreadFactory.class).invoke(null, BUILDER.getMethod("factory").invoke(virtualBuilder("vworker-")));
                try {
                    Future<String> f = perTask.submit(() -> {
                        gate.run();
                        return Thread.currentThread().getName() + " " + new byte[64 * 1024].length;
                    });
                    lookWhenDone(f, parked);
                    return f.get();
                } finally {
                    perTask.shutdown();
                }
            }
            case "knownVirtual": {
                // JDK 21+: the known path on a virtual worker: it allocates KNOWN_BYTES, sleeps
                // KNOWN_SLEEP_MILLIS (unmounted, then mounted again) and parks in a class initializer,
                // which pins it to its carrier on every JDK so far.
                ExecutorService perTask = (ExecutorService) Executors.class.getMethod("newThreadPerTaskExecutor",
                        ThreadFactory.class).invoke(null, BUILDER.getMethod("factory").invoke(virtualBuilder("vworker-")));
                try {
                    Future<Integer> f = perTask.submit(() -> {
                        byte[] known = new byte[KNOWN_BYTES];
                        Thread.sleep(KNOWN_SLEEP_MILLIS);
                        return known.length + PinningInit.VALUE;
                    });
                    return f.get();
                } finally {
                    perTask.shutdown();
                }
            }
            case "virtual": {
                // JDK 21+: a task on a virtual thread that parks (a timed sleep) and is mounted again.
                ExecutorService virtual = (ExecutorService) Executors.class
                        .getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
                try {
                    Future<Integer> f = virtual.submit(() -> {
                        Thread.sleep(3);
                        return new byte[64 * 1024].length;
                    });
                    return f.get();
                } finally {
                    virtual.shutdown();
                }
            }
            default:
                throw new IllegalArgumentException("unknown scenario " + scenario);
        }
    }

    private static Class<?> builderClass() {
        try {
            return Class.forName("java.lang.Thread$Builder");
        } catch (ClassNotFoundException beforeJdk21) {
            return null;
        }
    }

    private static Object requestQuietly(String scenario, boolean parked) {
        try {
            return request(scenario, parked);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** JDK 21's Thread.ofVirtual().name(prefix, 1), through reflection: the test classes are built for 17. */
    private static Object virtualBuilder(String prefix) throws ReflectiveOperationException {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return BUILDER.getMethod("name", String.class, long.class).invoke(builder, prefix, 1L);
    }

    /** Before: the caller looks only once the result is there. Parked: it looks at once. */
    private static void lookWhenDone(Future<?> f, boolean parked) {
        if (!parked) {
            awaitTrue(f::isDone);
        }
    }
}
