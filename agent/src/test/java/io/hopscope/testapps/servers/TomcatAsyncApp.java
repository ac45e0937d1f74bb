package io.hopscope.testapps.servers;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Async servlets and a client that goes away, on an embedded Tomcat 11 (jakarta). Each case is one
 * request with a traceparent of its own, sent after the previous one ended, and prints
 * {@code case NAME TRACE_ID status CODE body BODY}:
 * <ul>
 * <li>{@code later}: startAsync, and a scheduler's thread writes the response and completes it
 * {@link #LATER_MILLIS} after, when the first thread has long returned;</li>
 * <li>{@code start}: {@code AsyncContext#start(Runnable)}, whose task the container runs on its
 * executor; the handler waits until the task has begun, so it runs on another thread;</li>
 * <li>{@code dispatch}: startAsync, then a thread outside any request (started before the server)
 * dispatches it {@link #LATER_MILLIS} after to another servlet, which answers;</li>
 * <li>{@code gone}: a servlet writing a large body slowly while its client closes its socket
 * (SO_LINGER 0: a reset), until a write fails; the app waits for the servlet to end.</li>
 * </ul>
 */
public final class TomcatAsyncApp {

    public static final long LATER_MILLIS = 200;
    static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor(
            r -> new Thread(r, "async-later"));
    static final BlockingQueue<AsyncContext> TO_DISPATCH = new LinkedBlockingQueue<>();
    static final CountDownLatch GONE_ENDED = new CountDownLatch(1);
    static volatile String goneOutcome = "running";

    public static void main(String[] args) throws Exception {
        Thread dispatcher = new Thread(() -> {
            try {
                while (true) {
                    AsyncContext context = TO_DISPATCH.take();
                    TimeUnit.MILLISECONDS.sleep(LATER_MILLIS);
                    context.dispatch("/dispatched");
                }
            } catch (InterruptedException e) {
                // the app ends
            }
        }, "outside-dispatcher");
        dispatcher.setDaemon(true);
        dispatcher.start();
        EmbeddedTomcat tomcat = new EmbeddedTomcat(Map.of());
        tomcat.servlet("async", AsyncServlet.class, "/async/*", true);
        tomcat.servlet("dispatched", DispatchedServlet.class, "/dispatched", true);
        tomcat.servlet("gone", GoneServlet.class, "/gone", false);
        String base = tomcat.start();
        int n = 1;
        for (String name : new String[] {"later", "start", "dispatch"}) {
            System.out.println(get(base, name, n++));
        }
        System.out.println(gone(base, n));
        if (!GONE_ENDED.await(60, TimeUnit.SECONDS)) {
            System.out.println("gone: the servlet still writes after 60 s");
            System.exit(1);
        }
        System.out.println("gone servlet " + goneOutcome);
        tomcat.stop();
        SCHEDULER.shutdown();
    }

    private static String get(String base, String name, int n) throws IOException {
        String traceparent = ServerStudy.traceparent(n);
        HttpURLConnection c = (HttpURLConnection) new URL(base + "/async/" + name).openConnection();
        c.setRequestProperty("traceparent", traceparent);
        int status = c.getResponseCode();
        String body;
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return "case " + name + " " + traceparent.substring(3, 35) + " status " + status + " body " + body;
    }

    /** Reads the start of /gone's response, then resets the connection. */
    private static String gone(String base, int n) throws IOException {
        String traceparent = ServerStudy.traceparent(n);
        URL url = new URL(base + "/gone");
        long read = 0;
        try (Socket socket = new Socket(url.getHost(), url.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /gone HTTP/1.1\r\nHost: 127.0.0.1\r\ntraceparent: " + traceparent + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            while (read < GoneServlet.CHUNK_BYTES) {
                int r = in.read(buffer);
                if (r < 0) {
                    break;
                }
                read += r;
            }
            socket.setSoLinger(true, 0);
        }
        return "case gone " + traceparent.substring(3, 35) + " status -1 body read " + read;
    }

    /** /async/NAME: the async cases. */
    public static final class AsyncServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            String name = request.getPathInfo().substring(1);
            AsyncContext context = request.startAsync();
            switch (name) {
                case "later":
                    SCHEDULER.schedule(() -> answer(context, "later"), LATER_MILLIS, TimeUnit.MILLISECONDS);
                    break;
                case "start":
                    CountDownLatch begun = new CountDownLatch(1);
                    context.start(() -> {
                        begun.countDown();
                        answer(context, "started on " + Thread.currentThread().getName());
                    });
                    try {
                        begun.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    break;
                case "dispatch":
                    TO_DISPATCH.add(context);
                    break;
                default:
                    response.sendError(404);
                    context.complete();
            }
        }

        private static void answer(AsyncContext context, String body) {
            try {
                context.getResponse().getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } finally {
                context.complete();
            }
        }
    }

    /** The dispatch's target: answers synchronously, which completes the async cycle. */
    public static final class DispatchedServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.getOutputStream().write("dispatched".getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Writes 64 KiB every 10 ms, flushed, until a write fails (its client went away) or 60 s pass. */
    public static final class GoneServlet extends HttpServlet {
        static final int CHUNK_BYTES = 64 * 1024;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            byte[] chunk = new byte[CHUNK_BYTES];
            OutputStream out = response.getOutputStream();
            try {
                for (int i = 0; i < 6000; i++) {
                    out.write(chunk);
                    out.flush();
                    TimeUnit.MILLISECONDS.sleep(10);
                }
                goneOutcome = "wrote everything";
            } catch (IOException e) {
                goneOutcome = "threw " + e.getClass().getName();
                throw e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                GONE_ENDED.countDown();
            }
        }
    }
}
