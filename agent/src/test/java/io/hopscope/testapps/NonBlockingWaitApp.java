package io.hopscope.testapps;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The deadlock-prone pattern: a Reactor NonBlocking thread (parallel scheduler) blocks in
 * CompletableFuture#get on work of another thread. No request is involved.
 */
public final class NonBlockingWaitApp {

    private static final ExecutorService WORKER = Executors.newSingleThreadExecutor(r -> new Thread(r, "slow-worker"));

    public static void main(String[] args) {
        String result = Mono.fromCallable(NonBlockingWaitApp::blockOnNonBlockingThread)
                .subscribeOn(Schedulers.parallel())
                .block();
        System.out.println("result: " + result);
        Schedulers.shutdownNow();
        WORKER.shutdown();
    }

    static String blockOnNonBlockingThread() throws Exception {
        CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Thread.currentThread().getName();
        }, WORKER);
        return slow.get(10, TimeUnit.SECONDS);
    }
}
