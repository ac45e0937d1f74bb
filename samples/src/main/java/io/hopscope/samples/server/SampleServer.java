package io.hopscope.samples.server;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The embedded HTTP/1.1 server every scenario talks to: Jetty 12 core handlers, fully asynchronous.
 *
 * <p>{@code GET /any?size=BYTES&delayMs=MS} answers {@code size} bytes after {@code delayMs};
 * {@code POST /upload} (or PUT) first reads and discards the request body, then does the same and
 * reports the bytes it read in {@code X-Received-Bytes}. Query parameters override the server's
 * defaults so a client always knows the body length to expect.
 *
 * <p>The delay is a scheduled write, not a sleeping thread: 1500 outstanding 5 s requests (the
 * open-loop study) cost 1500 connections, not 1500 server threads, so the server never becomes the
 * bottleneck the client-side thread explosion is supposed to show.
 */
public final class SampleServer implements AutoCloseable {

    /** Largest response body a request may ask for; larger asks get 400. */
    public static final int MAX_RESPONSE_BYTES = 64 << 20;
    public static final String RECEIVED_BYTES_HEADER = "X-Received-Bytes";

    private final Server server;
    private final ServerConnector connector;
    private final ScheduledExecutorService delays;
    private final long defaultDelayMs;
    private final int defaultSizeBytes;
    private volatile byte[] zeros = new byte[0];

    private SampleServer(int port, long defaultDelayMs, int defaultSizeBytes) {
        this.defaultDelayMs = defaultDelayMs;
        this.defaultSizeBytes = defaultSizeBytes;
        // Daemon threads: an in-process server must never keep a finished scenario's JVM alive.
        QueuedThreadPool pool = new QueuedThreadPool(200, 8);
        pool.setName("sample-server");
        pool.setDaemon(true);
        this.server = new Server(pool);
        this.connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        // The open-loop study opens thousands of connections within seconds.
        connector.setAcceptQueueSize(4096);
        connector.setIdleTimeout(120_000);
        server.addConnector(connector);
        this.delays = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sample-server-delay");
            t.setDaemon(true);
            return t;
        });
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                return SampleServer.this.handle(request, response, callback);
            }
        });
    }

    /** Starts a server on 127.0.0.1; {@code port} 0 picks an ephemeral port. */
    public static SampleServer start(int port, long defaultDelayMs, int defaultSizeBytes) throws Exception {
        SampleServer s = new SampleServer(port, defaultDelayMs, defaultSizeBytes);
        s.server.start();
        return s;
    }

    public int port() {
        return connector.getLocalPort();
    }

    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + port());
    }

    public void join() throws InterruptedException {
        server.join();
    }

    @Override
    public void close() {
        delays.shutdownNow();
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("stopping the sample server failed", e);
        }
    }

    private boolean handle(Request request, Response response, Callback callback) {
        long delayMs;
        long sizeBytes;
        try {
            Fields query = Request.extractQueryParameters(request);
            delayMs = longParam(query, "delayMs", defaultDelayMs);
            sizeBytes = longParam(query, "size", defaultSizeBytes);
        } catch (NumberFormatException e) {
            Response.writeError(request, response, callback, 400, "delayMs and size must be integers");
            return true;
        }
        if (delayMs < 0 || sizeBytes < 0 || sizeBytes > MAX_RESPONSE_BYTES) {
            Response.writeError(request, response, callback, 400, "delayMs/size out of range");
            return true;
        }
        String method = request.getMethod();
        boolean upload = "POST".equals(method) || "PUT".equals(method);
        if (upload && !"/upload".equals(Request.getPathInContext(request))) {
            Response.writeError(request, response, callback, 404, "uploads go to /upload");
            return true;
        }
        if (!upload && !"GET".equals(method)) {
            Response.writeError(request, response, callback, 405, "GET, or POST/PUT to /upload");
            return true;
        }
        int size = (int) sizeBytes;
        if (upload) {
            drain(request, new long[1], received -> respondLater(response, callback, delayMs, size, received),
                    callback);
        } else {
            respondLater(response, callback, delayMs, size, 0);
        }
        return true;
    }

    /** Reads the body chunk by chunk without blocking, counting and releasing each chunk. */
    private static void drain(Request request, long[] received, java.util.function.LongConsumer onEnd,
                              Callback callback) {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(() -> drain(request, received, onEnd, callback));
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                callback.failed(chunk.getFailure());
                return;
            }
            received[0] += chunk.remaining();
            boolean last = chunk.isLast();
            chunk.release();
            if (last) {
                onEnd.accept(received[0]);
                return;
            }
        }
    }

    private void respondLater(Response response, Callback callback, long delayMs, int size, long received) {
        Runnable write = () -> {
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, size);
            response.getHeaders().put(RECEIVED_BYTES_HEADER, received);
            response.write(true, ByteBuffer.wrap(zeros(size), 0, size), callback);
        };
        if (delayMs == 0) {
            write.run();
        } else {
            delays.schedule(write, delayMs, TimeUnit.MILLISECONDS);
        }
    }

    /** One shared read-only-by-convention array of zeros, grown on demand, so bodies cost no copy. */
    private byte[] zeros(int size) {
        byte[] z = zeros;
        if (z.length < size) {
            synchronized (this) {
                if (zeros.length < size) {
                    zeros = new byte[size];
                }
                z = zeros;
            }
        }
        return z;
    }

    private static long longParam(Fields query, String name, long dflt) {
        String v = query.getValue(name);
        return v == null ? dflt : Long.parseLong(v);
    }
}
