package io.hopscope.analyzer.testing;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;

/**
 * Writes a real recording of the known path, in this JVM, with the events committed where the agent
 * would commit them: caller -> A (handoff, A allocates) -> B (handoff; B blocks on a monitor another
 * thread holds, then allocates and completes a future) -> caller (wake out of {@code get}). The JDK
 * events (monitor enter, park, allocation samples, GC) are the JVM's own. Every allocation of the
 * path is sampled only in a JVM whose TLABs are smaller than {@link #ALLOC_BYTES} and never resized
 * (the analyzer's surefire configuration), which {@link #write} checks.
 */
public final class KnownPathRecording {

    /** The class of the contended monitor, so tests can find it by name in the report. */
    public static final class KnownLock {
    }

    /** The blocker A parks on for {@link #PARK_MILLIS} inside its segment (a jdk.ThreadPark with this class). */
    public static final class KnownParkBlocker {
    }

    public static final long PARK_MILLIS = 3;
    public static final String NAME = "io.hopscope.samples.knownpath.KnownPath#request";
    public static final int ALLOC_BYTES = 1 << 20;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final AtomicLong IDS = new AtomicLong(1000);
    private static volatile Object sink;

    private KnownPathRecording() {
    }

    /** Runs {@code count} requests with a monitor held {@code lockHoldMillis} and dumps the recording to {@code file}. */
    public static void write(Path file, int count, long lockHoldMillis) throws Exception {
        requireFixedTlabs();
        // One request before recording: class loading and JFR's event registration on the first
        // commits take longer than the lock is held, so the first recorded request would see no contention.
        Workers threads = new Workers();
        try {
            record(file, threads, count, lockHoldMillis);
        } finally {
            threads.close();
        }
    }

    /**
     * An array that fits in the thread's current TLAB is allocated without a JFR sample, so with
     * TLABs the collector grows past {@link #ALLOC_BYTES}, whether a request has a sample would be chance.
     */
    private static void requireFixedTlabs() {
        com.sun.management.HotSpotDiagnosticMXBean vm =
                ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        long tlabBytes = Long.parseLong(vm.getVMOption("TLABSize").getValue());
        if (Boolean.parseBoolean(vm.getVMOption("ResizeTLAB").getValue()) || tlabBytes == 0 || tlabBytes >= ALLOC_BYTES) {
            throw new IllegalStateException("KnownPathRecording needs -XX:-ResizeTLAB -XX:TLABSize=64k (see analyzer/pom.xml)");
        }
    }

    /** The three threads of the path, the same ones for the warm-up and the recorded requests. */
    private static final class Workers {
        final ExecutorService a = Executors.newSingleThreadExecutor(r -> new Thread(r, "known-path-A"));
        volatile Thread threadB;
        final ExecutorService b = Executors.newSingleThreadExecutor(r -> threadB = new Thread(r, "known-path-B"));
        final ExecutorService caller = Executors.newSingleThreadExecutor(r -> new Thread(r, "known-path-caller"));

        void close() throws InterruptedException {
            for (ExecutorService e : java.util.List.of(a, b, caller)) {
                e.shutdownNow();
                e.awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    private static void record(Path file, Workers threads, int count, long lockHoldMillis) throws Exception {
        try (Recording warmup = new Recording()) {
            enable(warmup);
            warmup.start();
            run(threads, 1, lockHoldMillis);
            warmup.stop();
        }
        try (Recording recording = new Recording()) {
            enable(recording);
            recording.start();
            ContractEvents.AgentInfo info = new ContractEvents.AgentInfo();
            info.version = "test";
            info.options = "requests=" + NAME;
            info.commit();
            clockSync();
            run(threads, count, lockHoldMillis);
            clockSync();
            recording.stop();
            recording.dump(file);
        }
    }

    private static void enable(Recording recording) {
        {
            for (Class<? extends jdk.jfr.Event> c : java.util.List.of(ContractEvents.Request.class,
                    ContractEvents.Segment.class, ContractEvents.Hop.class, ContractEvents.Span.class,
                    ContractEvents.Wait.class, ContractEvents.ClockSync.class, ContractEvents.AgentInfo.class)) {
                recording.enable(c);
            }
            recording.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
            recording.enable("jdk.ThreadPark").withThreshold(Duration.ZERO).withStackTrace();
            recording.enable("jdk.ObjectAllocationSample").with("throttle", "off").withStackTrace();
            recording.enable("jdk.GarbageCollection");
            recording.enable("jdk.GCPhasePause");
            recording.enable("jdk.JavaThreadStatistics").withPeriod(Duration.ofMillis(100));
        }
    }

    private static void clockSync() {
        ContractEvents.ClockSync sync = new ContractEvents.ClockSync();
        sync.begin();
        sync.monotonicNanos = System.nanoTime();
        sync.commit();
    }

    private static void run(Workers threads, int count, long lockHoldMillis) throws Exception {
        KnownLock lock = new KnownLock();
        threads.caller.submit(() -> {
            for (int i = 0; i < count; i++) {
                request(threads, lock, lockHoldMillis);
                Thread.sleep(20);
            }
            return null;
        }).get(60, TimeUnit.SECONDS);
    }

    private static void request(Workers threads, KnownLock lock, long holdMillis) throws Exception {
        ExecutorService a = threads.a;
        ExecutorService b = threads.b;
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (lock) {
                held.countDown();
                // Hold for the full time once B is blocked, so that the contention is known however
                // slowly this (shared, busy) machine gets A and B going.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (System.nanoTime() < deadline && (threads.threadB == null
                        || threads.threadB.getState() != Thread.State.BLOCKED)) {
                    sleep(1);
                }
                sleep(holdMillis);
            }
        }, "known-path-holder");
        holder.start();
        held.await();

        long id = IDS.incrementAndGet();
        Thread caller = Thread.currentThread();
        ContractEvents.Request req = new ContractEvents.Request();
        req.begin();
        ContractEvents.Segment first = segmentStart();
        CompletableFuture<String> done = new CompletableFuture<>();
        long[] completedAt = new long[1];
        Thread[] completer = new Thread[1];
        long submitA = System.nanoTime();
        a.execute(() -> {
            hop(id, "handoff", caller, System.nanoTime() - submitA, "java.util.concurrent.ThreadPoolExecutor");
            ContractEvents.Segment onA = segmentStart();
            sink = new byte[ALLOC_BYTES];
            java.util.concurrent.locks.LockSupport.parkNanos(new KnownParkBlocker(), PARK_MILLIS * 1_000_000L);
            long submitB = System.nanoTime();
            Thread threadA = Thread.currentThread();
            b.execute(() -> {
                hop(id, "handoff", threadA, System.nanoTime() - submitB, "java.util.concurrent.ThreadPoolExecutor");
                ContractEvents.Segment onB = segmentStart();
                synchronized (lock) {
                    sink = new byte[ALLOC_BYTES];
                }
                completer[0] = Thread.currentThread();
                completedAt[0] = System.nanoTime();
                segmentEnd(onB, id, "task");
                done.complete("ok");
            });
            segmentEnd(onA, id, "task");
        });
        segmentEnd(first, id, "start");

        ContractEvents.Wait wait = new ContractEvents.Wait();
        wait.begin();
        done.get(10, TimeUnit.SECONDS);
        long resumed = System.nanoTime();
        wait.requestId = id;
        wait.kind = "CompletableFuture.get";
        wait.wakerThread = completer[0];
        wait.wakeLatencyNanos = resumed - completedAt[0];
        wait.nonBlockingThread = false;
        wait.outcome = "value";
        wait.commit();
        hop(id, "wake", completer[0], resumed - completedAt[0], "java.util.concurrent.CompletableFuture");
        ContractEvents.Segment resume = segmentStart();

        ContractEvents.Span outer = new ContractEvents.Span();
        outer.begin();
        ContractEvents.Span inner = new ContractEvents.Span();
        inner.begin();
        sleep(2);
        span(inner, id, id * 10 + 2, id * 10 + 1, "InnerPolicy", 1);
        sleep(1);
        span(outer, id, id * 10 + 1, 0, "OuterPolicy", 0);

        segmentEnd(resume, id, "resume");
        req.requestId = id;
        req.name = NAME;
        req.boundary = NAME;
        req.outcome = "ok";
        req.statusCode = -1;
        req.startThread = caller;
        req.commit();
        holder.join();
    }

    private static void span(ContractEvents.Span s, long id, long spanId, long parent, String name, int depth) {
        s.requestId = id;
        s.spanId = spanId;
        s.parentSpanId = parent;
        s.kind = "policy";
        s.name = "io.hopscope.test." + name;
        s.mode = "sync";
        s.depth = depth;
        s.commit();
    }

    private static void hop(long id, String kind, Thread from, long delayNanos, String via) {
        ContractEvents.Hop hop = new ContractEvents.Hop();
        hop.begin();
        hop.requestId = id;
        hop.kind = kind;
        hop.fromThread = from;
        hop.toThread = Thread.currentThread();
        hop.delayNanos = delayNanos;
        hop.via = via;
        hop.commit();
    }

    private static ContractEvents.Segment segmentStart() {
        ContractEvents.Segment s = new ContractEvents.Segment();
        s.allocatedBytes = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
        s.cpuNanos = THREADS.getCurrentThreadCpuTime();
        s.begin();
        return s;
    }

    private static void segmentEnd(ContractEvents.Segment s, long id, String kind) {
        s.requestId = id;
        s.kind = kind;
        s.allocatedBytes = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId()) - s.allocatedBytes;
        s.cpuNanos = THREADS.getCurrentThreadCpuTime() - s.cpuNanos;
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
