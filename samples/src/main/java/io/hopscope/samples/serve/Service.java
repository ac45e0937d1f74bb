package io.hopscope.samples.serve;

import io.hopscope.samples.common.CallerThreads;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The service under test of {@code serve}: Jetty 12 on 127.0.0.1 whose handler for {@code GET /serve}
 * blocks: it hands a hash of {@code workBytes} to a small application pool and joins it, then calls
 * the backend with the JDK's blocking {@code HttpClient#send}, and answers
 * {@code ok TRACE_ID backend=BYTES work=HASH} with its own time in {@link #HANDLER_NANOS_HEADER}.
 *
 * <p>What holds a request while the handler blocks is the mode: a thread of Jetty's bounded pool
 * ({@link Mode#POOL}), a thread of the application's own executor after the server thread has
 * returned ({@link Mode#ASYNC}), or a virtual thread ({@link Mode#VIRTUAL}).
 */
final class Service implements AutoCloseable {

    static final String PATH = "/serve";
    /** The handler's own time for the request, entry to response, in ns: the client subtracts it from what it waited. */
    static final String HANDLER_NANOS_HEADER = "X-Handler-Nanos";
    /** Set by the load on warm-up requests, which the handler answers but leaves out of its figures. */
    static final String WARMUP_HEADER = "X-Serve-Warmup";

    /**
     * Threads of Jetty's pool that never run a request: the connector leases one for its acceptor and
     * one for its selector (see the constructor), so a pool of {@code threads} + these runs {@code threads}
     * requests at a time.
     */
    private static final int LEASED_THREADS = 2;

    /** How the handler's blocking part is held. */
    enum Mode {
        POOL("pool"), ASYNC("async"), VIRTUAL("virtual");

        final String label;

        Mode(String label) {
            this.label = label;
        }

        static Mode byLabel(String label) {
            for (Mode m : values()) {
                if (m.label.equals(label)) {
                    return m;
                }
            }
            return null;
        }
    }

    private final Mode mode;
    private final Server server;
    private final ServerConnector connector;
    private final ExecutorService work;
    /** The application's executor of {@link Mode#ASYNC}; null otherwise. */
    private final ExecutorService async;
    private final ExecutorService backendIo;
    private final HttpClient backend;
    private final int backendBytes;
    private final long backendTimeoutMs;
    private final byte[] workInput;
    private volatile URI backendUri;
    private volatile boolean closing;
    private final ConcurrentHistogram handlerNanos = new ConcurrentHistogram(3);
    /** Platform or virtual: what the threads Jetty gave the measured requests to really were. */
    private final Set<String> handlerThreadKinds = ConcurrentHashMap.newKeySet();

    private Service(Mode mode, int threads, int workThreads, int workBytes, int backendBytes, long backendDelayMs) {
        this.mode = mode;
        this.backendBytes = backendBytes;
        this.backendTimeoutMs = backendDelayMs + 30_000;
        this.workInput = new byte[workBytes];
        new SplittableRandom(40).nextBytes(workInput);
        // min = max: every thread exists before the first request, so none is created in the measured window.
        // No reserved threads: with one, Jetty may run a request on the selector thread itself and let the
        // reserved thread select (execute-produce-consume); without, each request is handed from the selector
        // to a pool thread through the pool's queue, the server queue the study is about.
        QueuedThreadPool pool = new QueuedThreadPool(threads + LEASED_THREADS, threads + LEASED_THREADS);
        pool.setName("serve-server");
        pool.setDaemon(true);
        pool.setReservedThreads(0);
        if (mode == Mode.VIRTUAL) {
            // Jetty then runs each request (a blocking task) on a new virtual thread instead of a pool thread.
            pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("serve-virtual-"));
        }
        this.server = new Server(pool);
        this.connector = new ServerConnector(server, 1, 1);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        connector.setIdleTimeout(120_000);
        server.addConnector(connector);
        server.setHandler(new StudyHandler());
        this.work = Executors.newFixedThreadPool(workThreads, CallerThreads.platform("serve-work-"));
        this.async = mode == Mode.ASYNC ? Executors.newFixedThreadPool(threads, CallerThreads.platform("serve-async-")) : null;
        this.backendIo = Executors.newCachedThreadPool(CallerThreads.platform("serve-backend-io-"));
        this.backend = HttpClient.newBuilder()
                .executor(backendIo)
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** Starts the service on an ephemeral port; it answers 503 until {@link #backend(URI)} is given. */
    static Service start(Mode mode, int threads, int workThreads, int workBytes, int backendBytes, long backendDelayMs)
            throws Exception {
        Service s = new Service(mode, threads, workThreads, workBytes, backendBytes, backendDelayMs);
        s.server.start();
        return s;
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + PATH);
    }

    void backend(URI uri) {
        backendUri = uri;
    }

    /**
     * The handler's own times of the measured requests, in ns: every request but the warm-up's, which
     * say so in a header, so no reset has to race the first measured request.
     */
    Histogram handlerNanos() {
        return handlerNanos.copy();
    }

    /** "platform", "virtual", or both, comma-separated: what the measured requests' handler threads were. */
    String handlerThreadKinds() {
        return String.join(", ", new TreeSet<>(handlerThreadKinds));
    }

    @Override
    public void close() {
        closing = true;
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("stopping the service failed", e);
        } finally {
            work.shutdownNow();
            if (async != null) {
                async.shutdownNow();
            }
            backendIo.shutdownNow();
        }
    }

    /**
     * Jetty's default invocation type for a handler is blocking, so it runs each request on a thread of
     * its pool (or a virtual thread), never on the selector. In {@link Mode#ASYNC} that thread only
     * hands the request to the application's executor and returns, as a Servlet's {@code startAsync} does.
     */
    private final class StudyHandler extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            long entered = System.nanoTime();
            if (!"GET".equals(request.getMethod()) || !PATH.equals(Request.getPathInContext(request))) {
                Response.writeError(request, response, callback, 404, "the study answers GET " + PATH);
                return true;
            }
            if (backendUri == null) {
                Response.writeError(request, response, callback, 503, "no backend yet");
                return true;
            }
            boolean warmup = request.getHeaders().contains(WARMUP_HEADER);
            if (!warmup) {
                handlerThreadKinds.add(CallerThreads.kindOf(Thread.currentThread()));
            }
            if (mode != Mode.ASYNC) {
                respond(request, response, callback, entered, warmup);
                return true;
            }
            try {
                async.execute(() -> respond(request, response, callback, entered, warmup));
            } catch (RejectedExecutionException e) {
                // Only once the run is over and the executor shut down.
                Response.writeError(request, response, callback, 503, "the service is stopping");
            }
            return true;
        }
    }

    /** The blocking part: the pool's work and its way back, then the backend call, then the answer. */
    private void respond(Request request, Response response, Callback callback, long entered, boolean warmup) {
        try {
            String traceId = traceId(request.getHeaders().get("traceparent"));
            Future<String> hash = work.submit(() -> hash(traceId));
            String workHash = hash.get();
            HttpResponse<byte[]> answer = backend.send(HttpRequest.newBuilder(backendUri)
                    .timeout(Duration.ofMillis(backendTimeoutMs)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (answer.statusCode() != 200 || answer.body().length != backendBytes) {
                Response.writeError(request, response, callback, 502, "the backend answered " + answer.statusCode()
                        + " with " + answer.body().length + " bytes, expected 200 with " + backendBytes);
                return;
            }
            byte[] body = ("ok " + traceId + " backend=" + answer.body().length + " work=" + workHash + "\n")
                    .getBytes(StandardCharsets.US_ASCII);
            long handlerNs = System.nanoTime() - entered;
            if (!warmup) {
                handlerNanos.recordValue(handlerNs);
            }
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
            response.getHeaders().put(HANDLER_NANOS_HEADER, handlerNs);
            response.write(true, ByteBuffer.wrap(body), callback);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.failed(e);
        } catch (ExecutionException | java.io.IOException | RuntimeException e) {
            // Answered rather than thrown: in async mode nothing would answer an exception of the executor's task.
            if (closing) {
                callback.failed(e);
            } else {
                Response.writeError(request, response, callback, 502, "the handler failed: " + e);
            }
        }
    }

    /** The trace id of a W3C {@code traceparent} ({@code 00-TRACEID-PARENTID-FLAGS}), or "-" without a valid one. */
    static String traceId(String traceparent) {
        if (traceparent == null || traceparent.length() != 55 || traceparent.charAt(2) != '-'
                || traceparent.charAt(35) != '-' || traceparent.charAt(52) != '-') {
            return "-";
        }
        String id = traceparent.substring(3, 35);
        for (int i = 0; i < id.length(); i++) {
            if (Character.digit(id.charAt(i), 16) < 0 || Character.isUpperCase(id.charAt(i))) {
                return "-";
            }
        }
        return id;
    }

    /** The CPU work a request hands to the pool: SHA-256 over the trace id and {@code workBytes}; 8 bytes of it in hex. */
    private String hash(String traceId) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(traceId.getBytes(StandardCharsets.US_ASCII));
            sha.update(workInput);
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
