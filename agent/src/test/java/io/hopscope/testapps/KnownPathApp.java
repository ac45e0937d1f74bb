package io.hopscope.testapps;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The known path, for the agent's own tests (the samples module has the full one): caller →
 * executor A (allocates) → executor B (blocks on a held monitor, allocates) → completes a
 * CompletableFuture the caller waits on with get(). One request = 3 hops on 3 threads.
 * Arguments: request count, bytes to allocate on each of A and B.
 */
public final class KnownPathApp {

    private static final Object LOCK = new Object();
    static volatile byte[] sink;
    /** Set by B just before it enters the monitor: the holder lets go 30 ms after that. */
    static volatile boolean bArrived;

    private final ExecutorService a = single("known-path-A");
    private final ExecutorService b = single("known-path-B");
    private final int allocBytes;

    KnownPathApp(int allocBytes) {
        this.allocBytes = allocBytes;
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int allocBytes = args.length > 1 ? Integer.parseInt(args[1]) : 1 << 20;
        KnownPathApp app = new KnownPathApp(allocBytes);
        Thread caller = new Thread(() -> {
            try {
                for (int i = 0; i < count; i++) {
                    app.holdLockFor(30);
                    long start = System.nanoTime();
                    String result = app.request(i);
                    System.out.println("request " + i + " " + result + " " + (System.nanoTime() - start) / 1_000_000 + " ms");
                    Thread.sleep(50);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "known-path-caller");
        caller.start();
        caller.join();
        app.shutdown();
    }

    /** Ends both pools' threads. */
    void shutdown() {
        a.shutdown();
        b.shutdown();
    }

    /** The request boundary (requests=io.hopscope.testapps.KnownPathApp#request). */
    public String request(int i) throws Exception {
        CompletableFuture<String> done = new CompletableFuture<>();
        a.execute(() -> {
            sink = new byte[allocBytes];
            b.execute(() -> {
                bArrived = true;
                synchronized (LOCK) {
                    sink = new byte[allocBytes];
                }
                done.complete("done " + i);
            });
        });
        return done.get(10, TimeUnit.SECONDS);
    }

    /**
     * A third thread takes the monitor before the request and holds it until holdMillis after B
     * reached it, so that B's monitor enter lasts that long however slow the first request is.
     */
    void holdLockFor(long holdMillis) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        bArrived = false;
        Thread holder = new Thread(() -> {
            synchronized (LOCK) {
                held.countDown();
                try {
                    while (!bArrived) {
                        Thread.sleep(1);
                    }
                    Thread.sleep(holdMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "known-path-holder");
        holder.setDaemon(true);
        holder.start();
        held.await();
    }

    private static ExecutorService single(String name) {
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
