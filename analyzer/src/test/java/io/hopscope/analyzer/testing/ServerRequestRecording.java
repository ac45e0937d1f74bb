package io.hopscope.analyzer.testing;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * A recording of inbound (server) requests, each event committed on the thread where the agent commits
 * it. Request 1, {@link #ROUTE} in the caller's trace {@link #TRACE}: the server's poller thread hands it
 * to its executor's thread after {@code serverQueueNanos} in the server's queue (a hop with serverQueue,
 * the request's start being the hand-over); the executor's thread hands its work to a handler pool
 * ({@link #HANDLER_QUEUE_NANOS}), whose task makes two outbound calls ({@code boundary} spans of
 * {@link #CALL}), and is woken back out of {@code CompletableFuture.get} ({@link #WAKE_NANOS}).
 * Request 2: the same route run on the executor's thread without a hand-over (a keep-alive
 * connection's next request). Request 3: a client call. Every delay is the recorded field, so the
 * figures are known whatever this machine's timing; the threads wait each delay out first, so that
 * every hop leaves after its request began, as in a real recording. Every request has its
 * hopscope.RequestStart, as {@code live} enables it. Its threads live as long as the JVM and write
 * every recording of it (see the comment on them); the threads stay alive after each recording, as JFR
 * writes an ended thread as null.
 */
public final class ServerRequestRecording {

    public static final String ROUTE = "GET /orders/{id}";
    public static final String CLIENT = "GET 127.0.0.1/stock/42";
    public static final String CALL = "java.net.http.HttpClient#send";
    public static final String POLLER = "http-nio-8080-Poller";
    public static final String EXEC = "http-nio-8080-exec-1";
    public static final String HANDLER = "orders-handler-1";
    public static final String SERVER_VIA = "org.apache.tomcat.util.threads.ThreadPoolExecutor";
    public static final String HANDLER_VIA = "com.example.orders.HandlerPool";
    public static final String WAKE_VIA = "com.example.orders.Reply";
    public static final long SERVER_QUEUE_NANOS = 2_500_000;
    public static final long HANDLER_QUEUE_NANOS = 400_000;
    public static final long WAKE_NANOS = 30_000;
    /** The caller's trace, as the server request carries it (from its traceparent header). */
    public static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
    public static final String SPAN = "b7ad6b7169203331";
    /** What each segment of the requests allocated. */
    public static final long SEGMENT_BYTES = 1024;

    private ServerRequestRecording() {
    }

    // The threads, one of each for every recording this JVM writes. JDK 17's string pool (JFR pools a
    // string of 16 to 128 characters it has seen before) keeps its cache from one recording to the next,
    // and a pooled string that a thread of an earlier recording wrote, committed again on another
    // thread, reads back as null; on the thread that pooled it, it reads back whole. So the strings
    // only these requests use are committed on these threads, always (and its vias are its own).
    private static final ExecutorService POLLER_THREAD = thread(POLLER);
    private static final ExecutorService EXEC_THREAD = thread(EXEC);
    private static final ExecutorService HANDLER_THREAD = thread(HANDLER);

    private static ExecutorService thread(String name) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** The three requests, request 1 queued {@code serverQueueNanos} in its server. */
    public static void write(Path file, long serverQueueNanos) throws Exception {
        write(file, serverQueueNanos, List.of());
    }

    /**
     * The same, with the JDK's {@code jdkEvents} too, every one of them, with stacks: {@code jdk.ThreadPark}
     * has request 1's calls, each a park of a millisecond on the handler's thread inside its segment.
     */
    public static synchronized void write(Path file, long serverQueueNanos, List<String> jdkEvents) throws Exception {
        try (Recording recording = new Recording()) {
            for (Class<? extends jdk.jfr.Event> type : List.of(ContractEvents.Request.class,
                    ContractEvents.RequestStart.class, ContractEvents.Segment.class, ContractEvents.Hop.class,
                    ContractEvents.Span.class, ContractEvents.Wait.class)) {
                recording.enable(type).withoutThreshold();
            }
            jdkEvents.forEach(e -> recording.enable(e).withoutThreshold().withStackTrace());
            recording.start();
            queued(POLLER_THREAD, EXEC_THREAD, HANDLER_THREAD, serverQueueNanos);
            EXEC_THREAD.submit(() -> oneSegment(2, ROUTE, "server")).get(10, TimeUnit.SECONDS);
            HANDLER_THREAD.submit(() -> oneSegment(3, CLIENT, "client")).get(10, TimeUnit.SECONDS);
            recording.stop();
            recording.dump(file);
        }
    }

    private static void queued(ExecutorService poller, ExecutorService exec, ExecutorService handler,
                               long serverQueueNanos) throws Exception {
        ContractEvents.Request request = new ContractEvents.Request();
        Thread[] pollerThread = new Thread[1];
        // The server hands the request over: where it begins.
        long handedOver = poller.submit(() -> {
            pollerThread[0] = Thread.currentThread();
            request.begin();
            started(1, ROUTE);
            return System.nanoTime();
        }).get(10, TimeUnit.SECONDS);
        exec.submit(() -> {
            Thread me = Thread.currentThread();
            waitOut(handedOver, serverQueueNanos);
            hop("handoff", pollerThread[0], me, serverQueueNanos, SERVER_VIA, true);
            ContractEvents.Segment first = segmentStart();
            CompletableFuture<String> done = new CompletableFuture<>();
            long[] completedAt = new long[1];
            Thread[] completer = new Thread[1];
            long submitted = System.nanoTime();
            handler.execute(() -> {
                waitOut(submitted, HANDLER_QUEUE_NANOS);
                hop("handoff", me, Thread.currentThread(), HANDLER_QUEUE_NANOS, HANDLER_VIA, false);
                ContractEvents.Segment task = segmentStart();
                call(1);
                call(2);
                completer[0] = Thread.currentThread();
                completedAt[0] = System.nanoTime();
                segmentEnd(task, 1, "task");
                done.complete("ok");
            });
            segmentEnd(first, 1, "start");
            ContractEvents.Wait wait = new ContractEvents.Wait();
            wait.begin();
            done.get(10, TimeUnit.SECONDS);
            waitOut(completedAt[0], WAKE_NANOS);
            wait.requestId = 1;
            wait.kind = "CompletableFuture.get";
            wait.wakerThread = completer[0];
            wait.wakeLatencyNanos = WAKE_NANOS;
            wait.outcome = "value";
            wait.commit();
            hop("wake", completer[0], me, WAKE_NANOS, WAKE_VIA, false);
            ContractEvents.Segment resume = segmentStart();
            segmentEnd(resume, 1, "resume");
            request.requestId = 1;
            request.name = ROUTE;
            request.kind = "server";
            request.boundary = "org.apache.catalina.connector.CoyoteAdapter#service";
            request.url = "http://127.0.0.1:8080/orders/42";
            request.outcome = "ok";
            request.statusCode = 200;
            request.traceId = TRACE;
            request.spanId = SPAN;
            request.commit();
            return null;
        }).get(10, TimeUnit.SECONDS);
    }

    private static Void oneSegment(long id, String name, String kind) {
        ContractEvents.Request request = new ContractEvents.Request();
        request.begin();
        started(id, name);
        ContractEvents.instantSegment(id, "start", SEGMENT_BYTES);
        request.requestId = id;
        request.name = name;
        request.kind = kind;
        request.outcome = "ok";
        request.statusCode = 200;
        request.commit();
        return null;
    }

    private static void started(long id, String name) {
        ContractEvents.RequestStart start = new ContractEvents.RequestStart();
        start.requestId = id;
        start.name = name;
        start.commit();
    }

    /** An outbound call of request 1 on the calling thread: a boundary span of about a millisecond. */
    private static void call(long spanId) {
        ContractEvents.Span span = new ContractEvents.Span();
        span.begin();
        LockSupport.parkNanos(1_000_000);
        span.requestId = 1;
        span.spanId = spanId;
        span.kind = "boundary";
        span.name = CALL;
        span.mode = "sync";
        span.commit();
    }

    private static void hop(String kind, Thread from, Thread to, long delayNanos, String via, boolean serverQueue) {
        ContractEvents.Hop hop = new ContractEvents.Hop();
        hop.requestId = 1;
        hop.kind = kind;
        hop.fromThread = from;
        hop.toThread = to;
        hop.delayNanos = delayNanos;
        hop.via = via;
        hop.serverQueue = serverQueue;
        hop.commit();
    }

    private static ContractEvents.Segment segmentStart() {
        ContractEvents.Segment s = new ContractEvents.Segment();
        s.begin();
        return s;
    }

    private static void segmentEnd(ContractEvents.Segment s, long id, String kind) {
        s.requestId = id;
        s.kind = kind;
        s.allocatedBytes = SEGMENT_BYTES;
        s.cpuNanos = -1;
        s.commit();
    }

    // At least nanos after from (System.nanoTime): the recorded delay is then never longer than the real one.
    private static void waitOut(long from, long nanos) {
        long left;
        while ((left = from + nanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    /** The durations of request 1's calls as the recording has them (end less start, epoch nanoseconds), in its order. */
    public static List<Long> callNanos(Path file) throws Exception {
        List<Long> nanos = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals("hopscope.Span")) {
                nanos.add(epochNanos(e.getEndTime()) - epochNanos(e.getStartTime()));
            }
        }
        return nanos;
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
