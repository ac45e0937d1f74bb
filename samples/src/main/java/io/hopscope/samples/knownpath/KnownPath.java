package io.hopscope.samples.knownpath;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The known path: one request is exactly three hops over three threads, so tests of the agent, the
 * analyzer and the eBPF tracers can check what they measure against what is certainly there.
 *
 * <p>{@link #request()} is the request boundary. The caller submits to executor A
 * ({@code known-path-A}), which allocates and submits to executor B ({@code known-path-B}); B blocks
 * on a monitor held by {@code known-path-holder}, allocates, and completes the future the caller
 * waits on with {@code get()}. Hops: caller→A, A→B, B→caller.
 */
public final class KnownPath implements AutoCloseable {

    /** Allocations escape into this field so that neither is scalar-replaced away by the JIT. */
    static volatile byte[] lastAllocation;

    private final int allocBytes;
    private final long lockHoldMs;
    private final Object monitor = new Object();
    private final ThreadPoolExecutor executorA = singleThread("known-path-A");
    private final ThreadPoolExecutor executorB = singleThread("known-path-B");
    private final Semaphore holdRequested = new Semaphore(0);
    private final Semaphore lockTaken = new Semaphore(0);
    private final Semaphore bArriving = new Semaphore(0);
    private final Thread holder;

    public KnownPath(int allocBytes, long lockHoldMs) {
        this.allocBytes = allocBytes;
        this.lockHoldMs = lockHoldMs;
        this.holder = new Thread(this::holdLoop, "known-path-holder");
        holder.setDaemon(true);
        holder.start();
    }

    /**
     * Makes the holder take the monitor and returns once it holds it; the holder lets go
     * {@code lockHoldMs} after B arrives at the monitor, so B's contention is the whole hold however
     * long the handoffs before it took on a loaded machine. Called before {@link #request()},
     * outside the boundary.
     */
    public void holdLockBeforeRequest() throws InterruptedException {
        holdRequested.release();
        lockTaken.acquire();
    }

    /** What one request did: the threads that ran A and B, how long B waited, what was allocated. */
    public record Result(String threadA, String threadB, long bBlockedNanos, long allocatedBytes) {
    }

    /** The request boundary: one invocation is one whole request. */
    public Result request() throws Exception {
        CompletableFuture<Result> done = new CompletableFuture<>();
        executorA.submit(() -> {
            String threadA = Thread.currentThread().getName();
            long allocatedByA = allocate();
            executorB.submit(() -> {
                long waitStart = System.nanoTime();
                bArriving.release();
                synchronized (monitor) {
                    // Blocks here until known-path-holder lets go of the monitor.
                }
                long blockedNanos = System.nanoTime() - waitStart;
                done.complete(new Result(threadA, Thread.currentThread().getName(), blockedNanos,
                        allocatedByA + allocate()));
            });
        });
        return done.get();
    }

    /** Bytes one request allocates on purpose: {@code allocBytes} in A and again in B. */
    public long expectedAllocatedBytes() {
        return 2L * allocBytes;
    }

    private long allocate() {
        byte[] bytes = new byte[allocBytes];
        for (int i = 0; i < bytes.length; i += 4096) {
            bytes[i] = 1;
        }
        lastAllocation = bytes;
        return bytes.length;
    }

    private void holdLoop() {
        try {
            while (true) {
                holdRequested.acquire();
                synchronized (monitor) {
                    lockTaken.release();
                    // Bounded, so that a request that never reaches B cannot hold the monitor forever.
                    bArriving.tryAcquire(10, TimeUnit.SECONDS);
                    Thread.sleep(lockHoldMs);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadPoolExecutor singleThread(String name) {
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void close() {
        executorA.shutdownNow();
        executorB.shutdownNow();
        holder.interrupt();
    }
}
