package io.hopscope.testapps.servers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.FutureCallback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * What Jetty does besides the study, each over a raw socket on 127.0.0.1, so that what the client
 * sends, and when, is the app's own:
 * <ul>
 * <li>{@code /disconnect}: the handler writes a response in 64 KiB blocking writes until one fails;
 * the client reads 256 KiB of it and resets the connection. The handler fails its callback with
 * the write's failure.</li>
 * <li>{@code /sync} twice, pipelined on one connection: the thread that handled the first reads the
 * second from the same buffer and runs it, with no hand-over.</li>
 * <li>{@code /async} then {@code /after-async}, pipelined: the async handler writes its response,
 * then completes its callback {@link #ASYNC_DELAY_MILLIS} later on the {@link #COMPLETER} thread,
 * which then hands the connection back to the pool, where the second request is read.</li>
 * <li>{@code /missing}: no handler takes it; Jetty answers 404 itself.</li>
 * </ul>
 * Prints {@code cases ok} when every response was as expected and the disconnected handler's write
 * failed (rather than timed out); exits 1 otherwise.
 */
public final class JettyCasesApp {

    public static final String POOL = "jetty-cases";
    public static final String COMPLETER = "jetty-completer";
    public static final long ASYNC_DELAY_MILLIS = 50;
    private static final int CHUNK_BYTES = 64 * 1024;
    /** At most 1 GiB: a handler whose writes never fail ends rather than writing forever. */
    private static final int MAX_CHUNKS = 16 * 1024;
    private static final int READ_BEFORE_RESET_BYTES = 256 * 1024;

    public static void main(String[] args) throws Exception {
        QueuedThreadPool pool = new QueuedThreadPool(8, 8);
        pool.setName(POOL);
        pool.setReservedThreads(0);
        ScheduledExecutorService completer = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, COMPLETER));
        CountDownLatch disconnectedHandlerDone = new CountDownLatch(1);
        AtomicReference<Throwable> writeFailure = new AtomicReference<>();
        Server server = new Server(pool);
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                switch (Request.getPathInContext(request)) {
                    case "/sync", "/after-async" -> {
                        written(response, "sync", callback);
                        return true;
                    }
                    case "/async" -> {
                        FutureCallback written = new FutureCallback();
                        written(response, "async", written);
                        written.get(30, TimeUnit.SECONDS);
                        completer.schedule(callback::succeeded, ASYNC_DELAY_MILLIS, TimeUnit.MILLISECONDS);
                        return true;
                    }
                    case "/disconnect" -> {
                        writeUntilItFails(response, callback, writeFailure);
                        disconnectedHandlerDone.countDown();
                        return true;
                    }
                    default -> {
                        return false;
                    }
                }
            }
        });
        server.start();
        int port = connector.getLocalPort();
        List<String> problems = new ArrayList<>();

        disconnectMidResponse(port);
        if (!disconnectedHandlerDone.await(60, TimeUnit.SECONDS)) {
            problems.add("the disconnected handler did not end");
        } else if (!(writeFailure.get() instanceof IOException)) {
            problems.add("the disconnected handler's write did not fail with an IOException: " + writeFailure.get());
        } else {
            System.out.println("disconnect: the handler's write failed with " + writeFailure.get().getClass().getName());
        }
        expect(problems, pipelined(port, "/sync", "/sync"), List.of(200, 200));
        expect(problems, pipelined(port, "/async", "/after-async"), List.of(200, 200));
        expect(problems, pipelined(port, "/missing"), List.of(404));

        // Each case's last request asks to close its connection, which Jetty does once it has
        // finished the exchange. Stopping the server before then cancels what Jetty has not
        // finished (a response's last write flushed to the client whose callback has not run yet):
        // the exchange fails, and its request with it, though the client had its whole response.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!connector.getConnectedEndPoints().isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                problems.add("connections still open 30 s after the last response: " + connector.getConnectedEndPoints());
                break;
            }
            Thread.sleep(1);
        }
        server.stop();
        completer.shutdown();
        if (!problems.isEmpty()) {
            System.out.println("cases failed: " + problems);
            System.exit(1);
        }
        System.out.println("cases ok");
    }

    private static void written(Response response, String body, Callback callback) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /** Blocking writes of 64 KiB until one fails; its failure fails the callback. */
    private static void writeUntilItFails(Response response, Callback callback, AtomicReference<Throwable> failure) {
        response.setStatus(200);
        byte[] chunk = new byte[CHUNK_BYTES];
        for (int i = 0; i < MAX_CHUNKS; i++) {
            FutureCallback written = new FutureCallback();
            response.write(false, ByteBuffer.wrap(chunk), written);
            try {
                written.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                failure.set(e.getCause());
                callback.failed(e.getCause());
                return;
            } catch (Exception e) {
                failure.set(e);
                callback.failed(e);
                return;
            }
        }
        callback.succeeded();
    }

    /** Sends the request, reads part of the response, then resets the connection (RST: linger 0). */
    private static void disconnectMidResponse(int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.getOutputStream().write(requestBytes("/disconnect", false));
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            int read = 0;
            while (read < READ_BEFORE_RESET_BYTES) {
                int n = in.read(buffer);
                if (n < 0) {
                    throw new IOException("the server closed the connection after " + read + " bytes");
                }
                read += n;
            }
            socket.setSoLinger(true, 0);
        }
    }

    /** Sends the requests in one write on one connection and reads their responses' statuses. */
    private static List<Integer> pipelined(int port, String... paths) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            ByteArrayOutputStream requests = new ByteArrayOutputStream();
            for (int i = 0; i < paths.length; i++) {
                requests.write(requestBytes(paths[i], i == paths.length - 1));
            }
            OutputStream out = socket.getOutputStream();
            out.write(requests.toByteArray());
            out.flush();
            InputStream in = socket.getInputStream();
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < paths.length; i++) {
                statuses.add(RawHttp.read(in).status());
            }
            return statuses;
        }
    }

    private static byte[] requestBytes(String path, boolean close) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    private static void expect(List<String> problems, List<Integer> statuses, List<Integer> expected) {
        System.out.println("statuses " + statuses);
        if (!statuses.equals(expected)) {
            problems.add("statuses " + statuses + ", expected " + expected);
        }
    }
}
