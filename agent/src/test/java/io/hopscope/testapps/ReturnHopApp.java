package io.hopscope.testapps;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One request per wait kind and timing (args: wait kinds, or all): the caller hands the work to
 * thread "return-worker" and waits for its result with the kind's blocking call, either after the
 * worker completed it ({@code before}: the result is there when the caller looks) or while the caller
 * is parked in that call ({@code parked}: the worker completes it only once the caller is seen
 * parked). Each request is a call of {@link #request}, a boundary (agent option requests=), named
 * by the line it prints: {@code request KIND TIMING}.
 */
public final class ReturnHopApp {

    static final String[] KINDS = {"CompletableFuture.get", "CompletableFuture.join", "FutureTask.get",
        "Mono.block", "Flux.blockFirst", "Flux.blockLast"};

    /** The app's for its whole life (see HandoverApp's pools). */
    private static final ExecutorService WORKER = Executors.newSingleThreadExecutor(
            r -> HandoverApp.daemon(r, "return-worker"));

    private ReturnHopApp() {
    }

    public static void main(String[] args) throws Exception {
        String[] kinds = args.length == 0 || args[0].equals("all") ? KINDS : args;
        for (String kind : kinds) {
            for (boolean parked : new boolean[] {false, true}) {
                Object value = request(kind, parked);
                System.out.println("request " + kind + " " + (parked ? "parked" : "before") + ": " + value);
            }
        }
    }

    /** The boundary: hands the work over and picks up its result with the blocking call {@code kind}. */
    public static Object request(String kind, boolean parked) throws Exception {
        Thread caller = Thread.currentThread();
        // The worker completes only once the caller is parked in the wait, or the caller looks only
        // once the result is there.
        Runnable gate = () -> {
            if (parked) {
                awaitTrue(() -> isParked(caller));
            }
        };
        switch (kind) {
            case "CompletableFuture.get":
            case "CompletableFuture.join": {
                CompletableFuture<String> f = new CompletableFuture<>();
                WORKER.execute(() -> {
                    gate.run();
                    f.complete(Thread.currentThread().getName());
                });
                if (!parked) {
                    awaitTrue(f::isDone);
                }
                return kind.endsWith("get") ? f.get() : f.join();
            }
            case "FutureTask.get": {
                Callable<String> task = () -> {
                    gate.run();
                    return Thread.currentThread().getName();
                };
                Future<String> f = WORKER.submit(task);
                if (!parked) {
                    awaitTrue(f::isDone);
                }
                return f.get();
            }
            case "Mono.block":
                // The sink is completed on the worker; before: the caller waits in the subscription,
                // so the value is there before block() looks.
                return Mono.<String>create(sink -> {
                    AtomicBoolean done = new AtomicBoolean();
                    WORKER.execute(() -> {
                        gate.run();
                        sink.success(Thread.currentThread().getName());
                        done.set(true);
                    });
                    if (!parked) {
                        awaitTrue(done::get);
                    }
                }).block();
            case "Flux.blockFirst":
            case "Flux.blockLast": {
                Flux<String> flux = Flux.create(sink -> {
                    AtomicBoolean done = new AtomicBoolean();
                    WORKER.execute(() -> {
                        gate.run();
                        sink.next("first");
                        sink.next(Thread.currentThread().getName());
                        sink.complete();
                        done.set(true);
                    });
                    if (!parked) {
                        awaitTrue(done::get);
                    }
                });
                return kind.endsWith("First") ? flux.blockFirst() : flux.blockLast();
            }
            default:
                throw new IllegalArgumentException("unknown wait kind " + kind);
        }
    }

    /**
     * Parked in a blocking call (LockSupport#park with a blocker: every wait kind here parks so, but
     * on JDK 11 a ForkJoinTask joined from outside its pool, which waits in Object#wait).
     */
    static boolean isParked(Thread t) {
        Thread.State state = t.getState();
        if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
            return false;
        }
        if (LockSupport.getBlocker(t) != null) {
            return true;
        }
        StackTraceElement[] stack = t.getStackTrace();
        return stack.length > 0 && stack[0].getClassName().equals("java.lang.Object")
                && stack[0].getMethodName().equals("wait");
    }

    /** Polls without an instrumented wait (no future's get, no latch's await). */
    static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting");
            }
            LockSupport.parkNanos(100_000);
        }
    }
}
