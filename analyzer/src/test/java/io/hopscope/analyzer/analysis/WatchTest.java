package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.StackSample;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.read.HopscopeContract;
import io.hopscope.analyzer.testing.ContractEvents;
import io.hopscope.analyzer.testing.ServerRequestRecording;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analyzer's single pass on a live stream ({@link RecordingAnalyzer#watching}): this JVM's own
 * {@link RecordingStream}, as {@code live} reads a JVM's over JMX, with requests committed while it runs
 * (a handoff to a worker that allocates, a wake back). Every request is handed over once, with its hops,
 * before its joined events; and once the analyzer says it is through a time, no request that ended
 * before it comes later.
 */
class WatchTest {

    private static volatile Object sink;

    /** What the analyzer handed over, in order: a request, or a joined sample with its request's id. */
    private record Handed(Request request, long sampleOf) {
    }

    @Test
    void everyRequestIsHandedOverOnceWithItsHopsBeforeItsJoinedEventsAndNoneAfterTheTimeItIsThrough() throws Exception {
        List<Handed> handed = Collections.synchronizedList(new ArrayList<>());
        List<long[]> throughs = Collections.synchronizedList(new ArrayList<>()); // {through, handed so far}
        RecordingAnalyzer analyzer = RecordingAnalyzer.watching("this test's stream", AnalysisOptions.all(),
                r -> handed.add(new Handed(r, 0)));
        analyzer.join(HopscopeContract.ALLOCATION_SAMPLE, new SegmentJoin() {
            @Override
            public void accept(StackSample sample, long requestId, String requestName) {
                if (requestId != 0) {
                    handed.add(new Handed(null, requestId));
                }
            }
        });
        List<Long> committed = new ArrayList<>();
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "watch-worker-1"));
        try (RecordingStream stream = new RecordingStream()) {
            for (Class<? extends jdk.jfr.Event> c : List.of(ContractEvents.Request.class, ContractEvents.Segment.class,
                    ContractEvents.Hop.class, ContractEvents.ClockSync.class)) {
                stream.enable(c);
            }
            stream.enable(HopscopeContract.ALLOCATION_SAMPLE).with("throttle", "off").withStackTrace();
            stream.setMaxAge(Duration.ofSeconds(30));
            analyzer.watch(stream, t -> throughs.add(new long[] {t, handed.size()}));
            stream.startAsync();
            long id = 0;
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3500);
            while (System.nanoTime() < until) {
                request(++id, worker);
                committed.add(id);
                Thread.sleep(10);
            }
            // Two more flush points after the last request's: the stream flushes about once a second.
            for (int i = 0; i < 30; i++) {
                tick();
                Thread.sleep(100);
            }
        } finally {
            worker.shutdownNow();
        }
        analyzer.endWatch();

        List<Long> requests = new ArrayList<>();
        long current = -1;
        for (Handed h : handed) {
            if (h.request() != null) {
                current = h.request().id();
                requests.add(current);
                List<Hop> hops = h.request().hops().list();
                assertThat(hops).extracting(Hop::kind).containsExactly("handoff", "wake");
                assertThat(hops).allSatisfy(hop -> assertThat(hop.to()).isNotEqualTo(ThreadRef.UNKNOWN));
            } else {
                assertThat(h.sampleOf()).as("a joined sample comes right after its request").isEqualTo(current);
            }
        }
        assertThat(requests).containsExactlyInAnyOrderElementsOf(committed);
        assertThat(new HashSet<>(requests)).hasSameSizeAs(requests);
        assertThat(handed).anySatisfy(h -> assertThat(h.request()).isNull());

        // Through times: more than one while the requests ran, never going back, and each kept.
        assertThat(throughs).hasSizeGreaterThan(1);
        long previous = Long.MIN_VALUE;
        for (long[] t : throughs) {
            assertThat(t[0]).isGreaterThanOrEqualTo(previous);
            previous = t[0];
            Set<Long> laterEnds = new HashSet<>();
            synchronized (handed) {
                for (Handed h : handed.subList((int) t[1], handed.size())) {
                    if (h.request() != null) {
                        laterEnds.add(h.request().endEpochNanos());
                    }
                }
            }
            assertThat(laterEnds).allSatisfy(end -> assertThat(end).isGreaterThanOrEqualTo(t[0]));
        }
    }

    /**
     * {@code live} ends a watch on its main thread (Ctrl-C, the target gone) while the stream's thread may
     * still hand events over: the end waits for the event being read, and nothing is read after it. Here
     * the end comes from another thread at the stream's first event, and the recording's requests all
     * come after it: none is handed over, and what the end returned stays the newest time read.
     */
    @Test
    void aStreamThatGoesOnAfterTheEndOfTheWatchHandsNothingOver(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("server.jfr");
        ServerRequestRecording.write(jfr, ServerRequestRecording.SERVER_QUEUE_NANOS);
        List<Request> handed = Collections.synchronizedList(new ArrayList<>());
        List<Long> throughs = Collections.synchronizedList(new ArrayList<>());
        RecordingAnalyzer analyzer = RecordingAnalyzer.watching("server.jfr", AnalysisOptions.all(), handed::add);
        AtomicLong endedAt = new AtomicLong(Long.MIN_VALUE);
        AtomicLong events = new AtomicLong();
        try (EventStream stream = EventStream.openFile(jfr)) {
            // Registered before the analyzer's: runs first on each event.
            stream.onEvent(e -> {
                if (events.getAndIncrement() == 0) {
                    Thread main = new Thread(() -> endedAt.set(analyzer.endWatch()), "live-main");
                    main.start();
                    try {
                        main.join(TimeUnit.SECONDS.toMillis(30));
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                    }
                    assertThat(main.isAlive()).as("the end waits for no later event").isFalse();
                }
            });
            analyzer.watch(stream, throughs::add);
            stream.start();
        }
        assertThat(events.get()).isGreaterThan(10);
        assertThat(handed).isEmpty();
        assertThat(throughs).isEmpty();
        assertThat(analyzer.endWatch()).isEqualTo(endedAt.get());
    }

    /** A request of the caller (this thread) handed to the worker, which allocates, and woken back. */
    private static void request(long id, ExecutorService worker) throws Exception {
        ContractEvents.Request req = new ContractEvents.Request();
        req.begin();
        ContractEvents.Segment first = new ContractEvents.Segment();
        first.begin();
        Thread caller = Thread.currentThread();
        long submitted = System.nanoTime();
        long[] completedAt = new long[1];
        Thread[] completer = new Thread[1];
        CompletableFuture<Void> done = new CompletableFuture<>();
        worker.execute(() -> {
            hop(id, "handoff", caller, System.nanoTime() - submitted);
            ContractEvents.Segment onWorker = new ContractEvents.Segment();
            onWorker.begin();
            sink = new byte[64 * 1024];
            completer[0] = Thread.currentThread();
            completedAt[0] = System.nanoTime();
            segment(onWorker, id, "task");
            done.complete(null);
        });
        done.get(10, TimeUnit.SECONDS);
        hop(id, "wake", completer[0], System.nanoTime() - completedAt[0]);
        segment(first, id, "start");
        req.requestId = id;
        req.name = "watch#request";
        req.outcome = "ok";
        req.statusCode = -1;
        req.commit();
    }

    private static void hop(long id, String kind, Thread from, long delayNanos) {
        ContractEvents.Hop hop = new ContractEvents.Hop();
        hop.requestId = id;
        hop.kind = kind;
        hop.fromThread = from;
        hop.delayNanos = delayNanos;
        hop.via = "java.util.concurrent.ThreadPoolExecutor";
        hop.commit();
    }

    private static void segment(ContractEvents.Segment s, long id, String kind) {
        s.requestId = id;
        s.kind = kind;
        s.allocatedBytes = -1;
        s.cpuNanos = -1;
        s.commit();
    }

    private static void tick() {
        ContractEvents.ClockSync sync = new ContractEvents.ClockSync();
        sync.begin();
        sync.monotonicNanos = System.nanoTime();
        sync.commit();
    }
}
