package io.hopscope.analyzer.testing;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;

/**
 * A real recording whose strings are hostile markup: a worker thread named {@link #THREAD} and a
 * request named {@link #NAME}. Each request hands off from {@code hostile-caller} to that thread and
 * is woken back by it (2 hops), so the name shows in every lane, arrow, table and flame graph.
 */
public final class HostileRecording {

    public static final String THREAD = "<img src=x onerror=alert(1)>";
    public static final String NAME = "GET /search?q=<script>alert(2)</script>&x=\"'";

    private HostileRecording() {
    }

    public static void write(Path file, int count) throws Exception {
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> new Thread(r, THREAD));
        ExecutorService caller = Executors.newSingleThreadExecutor(r -> new Thread(r, "hostile-caller"));
        try (Recording recording = new Recording()) {
            for (Class<? extends jdk.jfr.Event> c : java.util.List.of(ContractEvents.Request.class,
                    ContractEvents.Segment.class, ContractEvents.Hop.class, ContractEvents.Wait.class)) {
                recording.enable(c);
            }
            recording.start();
            caller.submit(() -> {
                for (int i = 0; i < count; i++) {
                    request(1 + i, worker);
                }
                return null;
            }).get(30, TimeUnit.SECONDS);
            recording.stop();
            recording.dump(file);
        } finally {
            worker.shutdownNow();
            caller.shutdownNow();
        }
    }

    private static void request(long id, ExecutorService worker) throws Exception {
        Thread caller = Thread.currentThread();
        ContractEvents.Request req = new ContractEvents.Request();
        req.begin();
        ContractEvents.Segment first = new ContractEvents.Segment();
        first.begin();
        long submitted = System.nanoTime();
        long[] completedAt = new long[1];
        Thread[] completer = new Thread[1];
        CompletableFuture<String> done = new CompletableFuture<>();
        worker.execute(() -> {
            hop(id, "handoff", caller, System.nanoTime() - submitted);
            ContractEvents.Segment task = new ContractEvents.Segment();
            task.begin();
            sleep(2);
            completer[0] = Thread.currentThread();
            completedAt[0] = System.nanoTime();
            segment(task, id, "task");
            done.complete("ok");
        });
        segment(first, id, "start");
        ContractEvents.Wait wait = new ContractEvents.Wait();
        wait.begin();
        done.get(10, TimeUnit.SECONDS);
        long resumed = System.nanoTime();
        wait.requestId = id;
        wait.kind = "CompletableFuture.get";
        wait.wakerThread = completer[0];
        wait.wakeLatencyNanos = resumed - completedAt[0];
        wait.outcome = "value";
        wait.commit();
        hop(id, "wake", completer[0], resumed - completedAt[0]);
        ContractEvents.Segment resume = new ContractEvents.Segment();
        resume.begin();
        sleep(1);
        segment(resume, id, "resume");
        req.requestId = id;
        req.name = NAME;
        req.boundary = "<b>Boundary</b>#request";
        req.url = "http://127.0.0.1/search?q=<script>alert(3)</script>";
        req.outcome = "ok";
        req.statusCode = 200;
        req.startThread = caller;
        req.commit();
    }

    private static void hop(long id, String kind, Thread from, long delayNanos) {
        ContractEvents.Hop hop = new ContractEvents.Hop();
        hop.begin();
        hop.requestId = id;
        hop.kind = kind;
        hop.fromThread = from;
        hop.toThread = Thread.currentThread();
        hop.delayNanos = delayNanos;
        hop.via = "<i>via</i>";
        hop.commit();
    }

    private static void segment(ContractEvents.Segment s, long id, String kind) {
        s.requestId = id;
        s.kind = kind;
        s.commit();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
