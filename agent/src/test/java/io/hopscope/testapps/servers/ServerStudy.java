package io.hopscope.testapps.servers;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The study every server's IT runs (issue #40): a handler that hands work to a pool and joins it,
 * then calls a backend over HTTP with the JDK's client, under more concurrent clients than the
 * server has request threads, each request with a W3C {@code traceparent} of its own. A server's
 * test app (one per server, in this package) starts its server with a handler that calls
 * {@link #handle}, then {@link #run}s the study against it and closes it.
 *
 * <p>It prints one line per request, which {@code ServerChecks} reads back:
 * {@code request TRACE_ID PATH status CODE waited NANOS handled NANOS}: what the client waited and
 * what the handler measured of its own time (-1 when it did not run to the end). The client is
 * {@link HttpURLConnection}, which the agent does not instrument: the recording holds the server's
 * requests and the handler's calls, not the load's.
 *
 * <p>The server's queue is made certain, not left to timing: the first {@link #SERVER_THREADS}
 * handlers, one on each of the server's request threads, wait until the server has a request queued
 * for a thread ({@code queued}, which the app reads from its server's executor), then hold their
 * threads {@link #HOLD_MILLIS} more: no thread is free to take that request meanwhile, so it waits
 * at least that long in the queue. (Held by one handler only, the other thread could take it at
 * once, and a queue that long was left to how slow the other thread's first request was.)
 */
public final class ServerStudy implements AutoCloseable {

    /** Concurrent clients; a server under study has fewer request threads ({@link #SERVER_THREADS}). */
    public static final int CLIENTS = 4;
    public static final int REQUESTS_PER_CLIENT = 3;
    /**
     * System properties that give the study more clients and requests than {@link #CLIENTS} and
     * {@link #REQUESTS_PER_CLIENT} (the load IT's: many more callers than the machine has cores).
     */
    public static final String CLIENTS_PROPERTY = "hopscope.study.clients";
    public static final String REQUESTS_PROPERTY = "hopscope.study.requests";
    public static final int SERVER_THREADS = 2;
    /** How long the first handlers (one on each request thread) hold their threads once a request is queued. */
    public static final long HOLD_MILLIS = 40;
    /** What the pool's task allocates in the request (allocation is exact: at least this much is in it). */
    public static final int POOL_TASK_BYTES = 256 * 1024;
    /** The handler's backend call, a boundary span inside the server's request. */
    public static final String BACKEND_BOUNDARY = "java.net.http.HttpClient#send";
    /** Paths the study requests: a route with an id, one that fails in the handler. */
    public static final String ORDERS = "/orders/";
    public static final String FAIL = "/fail";
    /** The backend's path. */
    public static final String BACKEND_PATH = "/backend";

    private final ExecutorService pool = Executors.newFixedThreadPool(1, r -> new Thread(r, "study-pool"));
    private final HttpServer backend;
    private final HttpClient client = HttpClient.newHttpClient();
    /** Handlers that began: the first {@link #SERVER_THREADS} hold their threads until a request is queued. */
    private final AtomicInteger began = new AtomicInteger();
    private volatile BooleanSupplier queued = () -> true;
    /** Keeps what the pool's tasks allocate reachable until the task's result is read. */
    private volatile byte[] sink;

    public ServerStudy() throws IOException {
        backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.createContext(BACKEND_PATH, exchange -> {
            byte[] body = "backend".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        backend.start();
    }

    /**
     * The handler's work for {@code path}: returns the response body, which carries the nanoseconds
     * the handler measured. Throws for {@link #FAIL} (the server answers 500, or drops the connection).
     */
    public String handle(String path) throws Exception {
        long start = System.nanoTime();
        if (path.startsWith(FAIL)) {
            throw new IllegalStateException("the study's failing handler");
        }
        if (began.getAndIncrement() < SERVER_THREADS) {
            holdUntilAnotherIsQueued();
        }
        Future<Integer> task = pool.submit(() -> {
            byte[] b = new byte[POOL_TASK_BYTES];
            sink = b;
            TimeUnit.MILLISECONDS.sleep(5);
            return b.length;
        });
        int allocated = task.get(30, TimeUnit.SECONDS);
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(backendUrl())).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200 || allocated != POOL_TASK_BYTES) {
            throw new IllegalStateException("backend answered " + answer.statusCode());
        }
        return "handled " + (System.nanoTime() - start);
    }

    /** The app's way of telling that its server has a request queued for a thread. */
    public void queuedWhen(BooleanSupplier queued) {
        this.queued = queued;
    }

    private void holdUntilAnotherIsQueued() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!queued.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no request was queued behind the first ones in 30 s");
            }
            TimeUnit.MILLISECONDS.sleep(1);
        }
        TimeUnit.MILLISECONDS.sleep(HOLD_MILLIS);
    }

    private String backendUrl() {
        return "http://127.0.0.1:" + backend.getAddress().getPort() + BACKEND_PATH;
    }

    /**
     * The load: {@link #CLIENTS} threads (or {@link #CLIENTS_PROPERTY}'s), each sending
     * {@link #REQUESTS_PER_CLIENT} (or {@link #REQUESTS_PROPERTY}'s) GETs of
     * {@code base + ORDERS + n} over one keep-alive connection, then one request with a malformed
     * traceparent and one to {@link #FAIL}; prints each request's line. Exits non-zero when an
     * order was not answered 200 with the handler's body.
     */
    public void run(String base) throws Exception {
        int clientCount = Integer.getInteger(CLIENTS_PROPERTY, CLIENTS);
        int perClient = Integer.getInteger(REQUESTS_PROPERTY, REQUESTS_PER_CLIENT);
        ExecutorService clients = Executors.newFixedThreadPool(clientCount, r -> new Thread(r, "study-client"));
        List<Future<List<String>>> results = new ArrayList<>();
        for (int c = 0; c < clientCount; c++) {
            int client = c;
            results.add(clients.submit(() -> {
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < perClient; i++) {
                    int n = client * perClient + i + 1;
                    lines.add(send(base, ORDERS + n, traceparent(n)));
                }
                return lines;
            }));
        }
        boolean ok = true;
        for (Future<List<String>> r : results) {
            for (String line : r.get(120, TimeUnit.SECONDS)) {
                System.out.println(line);
                ok &= line.contains(" status 200 ") && !line.endsWith(" handled -1");
            }
        }
        clients.shutdown();
        String malformed = send(base, ORDERS + "0", "00-NOT-A-TRACE-PARENT-01");
        System.out.println(malformed);
        ok &= malformed.contains(" status 200 ");
        System.out.println(send(base, FAIL, traceparent(999)));
        if (!ok) {
            System.out.println("study: an order failed");
            System.exit(1);
        }
    }

    /** The traceparent of request {@code n}: its trace id is n in 32 hex digits, its parent span 0x100 + n. */
    public static String traceparent(int n) {
        return String.format("00-%032x-%016x-01", n, 0x100 + n);
    }

    private static String send(String base, String path, String traceparent) throws IOException {
        long start = System.nanoTime();
        HttpURLConnection c = (HttpURLConnection) new URL(base + path).openConnection();
        c.setRequestProperty("traceparent", traceparent);
        int status;
        String body;
        try {
            status = c.getResponseCode();
            try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
                body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException dropped) {
            status = -1; // a server that drops the connection of a failed handler (the JDK's)
            body = "";
        }
        return line(traceparent, path, status, System.nanoTime() - start, body);
    }

    /**
     * One request's line, as ServerChecks reads it: the request sent with {@code traceparent} for
     * {@code path}, answered with {@code status} (the server's protocol's: HTTP's, or a gRPC code)
     * and {@code body} (the handler's, or anything else) after the client waited {@code waitedNanos}.
     * For a server's app whose load is not this class's own (gRPC's).
     */
    public static String line(String traceparent, String path, int status, long waitedNanos, String body) {
        String handled = body.startsWith("handled ") ? body.substring("handled ".length()).trim() : "-1";
        String traceId = traceparent.length() > 35 && traceparent.charAt(2) == '-' ? traceparent.substring(3, 35) : "-";
        return "request " + traceId + " " + path + " status " + status + " waited " + waitedNanos + " handled " + handled;
    }

    @Override
    public void close() {
        backend.stop(0);
        pool.shutdownNow();
    }
}
