package io.hopscope.analyzer.bench;

import io.hopscope.analyzer.testing.ContractEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.Recording;

/**
 * Writes a large recording for the analyzer benchmark (not a test): {@code THREADS} caller threads
 * each run requests shaped like a sync-over-async call (caller segment, handoff to a worker lane,
 * worker segment with two policy spans, wake back, caller wait and resume segment: 10 contract events
 * a request), with a shared monitor contended now and then and allocation sampling on, so the JDK's
 * own lock, park and allocation events are in the file too.
 *
 * <p>An interim input until the agent is merged: then the benchmark should run a sample under the
 * agent instead (docs/performance.md). Usage: {@code RecordingGenerator REQUESTS OUT.jfr}.
 */
public final class RecordingGenerator {

    private static final int THREADS = 4;
    private static final Object SHARED = new Object();
    private static final AtomicLong IDS = new AtomicLong();
    private static volatile Object sink;

    private RecordingGenerator() {
    }

    public static void main(String[] args) throws Exception {
        long requests = Long.parseLong(args[0]);
        Path out = Path.of(args[1]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        try (Recording r = new Recording()) {
            for (Class<? extends jdk.jfr.Event> c : List.of(ContractEvents.Request.class, ContractEvents.Segment.class,
                    ContractEvents.Hop.class, ContractEvents.Span.class, ContractEvents.Wait.class,
                    ContractEvents.ClockSync.class)) {
                r.enable(c);
            }
            r.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
            r.enable("jdk.ThreadPark").withThreshold(Duration.ZERO).withStackTrace();
            r.enable("jdk.ObjectAllocationSample").with("throttle", "1000/s").withStackTrace();
            r.enable("jdk.GarbageCollection");
            r.enable("jdk.GCPhasePause");
            r.enable("jdk.JavaThreadStatistics").withPeriod(Duration.ofSeconds(1));
            r.setMaxSize(Long.MAX_VALUE);
            r.start();
            long t0 = System.nanoTime();
            List<Thread> callers = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                Thread worker = new Thread(() -> { }, "bench-worker-" + i);
                Thread caller = new Thread(() -> run(requests / THREADS, worker), "bench-caller-" + i);
                callers.add(caller);
                caller.start();
            }
            Thread clock = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    ContractEvents.ClockSync sync = new ContractEvents.ClockSync();
                    sync.begin();
                    sync.monotonicNanos = System.nanoTime();
                    sync.commit();
                    LockSupport.parkNanos(1_000_000_000L);
                }
            }, "bench-clock");
            clock.setDaemon(true);
            clock.start();
            for (Thread t : callers) {
                t.join();
            }
            clock.interrupt();
            r.stop();
            r.dump(out);
            System.out.printf("generated %d requests in %.1f s -> %s (%d MB)%n", requests,
                    (System.nanoTime() - t0) / 1e9, out, Files.size(out) >> 20);
        }
    }

    private static void run(long count, Thread lane) {
        Thread caller = Thread.currentThread();
        for (long i = 0; i < count; i++) {
            long id = IDS.incrementAndGet();
            ContractEvents.Request req = new ContractEvents.Request();
            req.begin();
            segment(id, "start", 2_000);
            // The "worker lane" is simulated on this thread with the worker's Thread as hop target:
            // the analyzer joins by the committing thread, so this keeps the file's shape without
            // paying a real handoff per request.
            hop(id, "handoff", caller, lane, 15_000);
            span(id, 1, 0, "com.azure.core.http.policy.RetryPolicy", 0);
            segment(id, "task", 8_000);
            if (i % 64 == 0) {
                synchronized (SHARED) {
                    sink = new byte[256];
                }
            }
            ContractEvents.Wait w = new ContractEvents.Wait();
            w.begin();
            w.requestId = id;
            w.kind = "Mono.block";
            w.wakerThread = lane;
            w.wakeLatencyNanos = 20_000;
            w.outcome = "value";
            w.commit();
            hop(id, "wake", lane, caller, 20_000);
            segment(id, "resume", 1_000);
            req.requestId = id;
            req.name = (i % 3 == 0) ? "PUT 127.0.0.1/blob" : "GET 127.0.0.1/blob";
            req.boundary = "com.azure.core.http.HttpPipeline#sendSync";
            req.outcome = "ok";
            req.statusCode = 200;
            req.startThread = caller;
            req.commit();
        }
    }

    private static void segment(long id, String kind, int allocBytes) {
        ContractEvents.Segment s = new ContractEvents.Segment();
        s.begin();
        sink = new byte[allocBytes];
        s.requestId = id;
        s.kind = kind;
        s.allocatedBytes = allocBytes + 16;
        s.cpuNanos = -1;
        s.commit();
    }

    private static void hop(long id, String kind, Thread from, Thread to, long delayNanos) {
        ContractEvents.Hop h = new ContractEvents.Hop();
        h.requestId = id;
        h.kind = kind;
        h.fromThread = from;
        h.toThread = to;
        h.delayNanos = delayNanos;
        h.via = "io.netty.channel.nio.NioEventLoop";
        h.commit();
    }

    private static void span(long id, long spanId, long parent, String name, int depth) {
        ContractEvents.Span s = new ContractEvents.Span();
        s.begin();
        s.requestId = id;
        s.spanId = id * 4 + spanId;
        s.parentSpanId = parent == 0 ? 0 : id * 4 + parent;
        s.kind = "policy";
        s.name = name;
        s.mode = "sync";
        s.depth = depth;
        s.commit();
    }
}
