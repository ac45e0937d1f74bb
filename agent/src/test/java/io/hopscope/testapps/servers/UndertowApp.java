package io.hopscope.testapps.servers;

import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.BlockingHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.xnio.XnioWorker;

/**
 * {@link ServerStudy} on Undertow with {@link ServerStudy#SERVER_THREADS} worker threads: the root
 * handler, on the XNIO I/O thread, dispatches each request to a worker ({@code BlockingHandler}).
 * Then two requests of Undertow's own: {@link #NON_BLOCKING}, answered on the I/O thread (no
 * dispatch), and {@link #DISCONNECT}, whose client resets the connection once the response has
 * begun, while its handler is still writing it.
 *
 * <p>It prints {@code undertow PATH ...} lines for those two; before it stops the server, it waits
 * until every exchange the server began has completed (its completion listeners ran, which is after
 * the agent's end of the request), so that no request is cut off by the JVM's exit.
 */
public final class UndertowApp {

    public static final String NON_BLOCKING = "/nonblocking";
    public static final String DISCONNECT = "/disconnect";
    /** The traceparents of the two (ServerStudy#traceparent of these numbers). */
    public static final int NON_BLOCKING_TRACE = 901;
    public static final int DISCONNECT_TRACE = 902;
    /** What the disconnecting client reads of the response before it resets the connection. */
    private static final int READ_BEFORE_RESET = 1024;

    private static final AtomicInteger began = new AtomicInteger();
    private static final AtomicInteger completed = new AtomicInteger();

    public static void main(String[] args) throws Exception {
        try (ServerStudy study = new ServerStudy()) {
            HttpHandler blocking = new BlockingHandler(exchange -> handleOnWorker(study, exchange));
            HttpHandler root = exchange -> {
                began.incrementAndGet();
                exchange.addExchangeCompleteListener((done, next) -> {
                    completed.incrementAndGet();
                    next.proceed();
                });
                if (exchange.getRequestPath().equals(NON_BLOCKING)) {
                    exchange.getResponseSender().send("answered on " + Thread.currentThread().getName());
                } else {
                    blocking.handleRequest(exchange); // dispatches to a worker, which runs handleOnWorker
                }
            };
            Undertow server = Undertow.builder()
                    .addHttpListener(0, "127.0.0.1")
                    .setIoThreads(1)
                    .setWorkerThreads(ServerStudy.SERVER_THREADS)
                    .setHandler(root)
                    .build();
            server.start();
            XnioWorker worker = server.getWorker();
            study.queuedWhen(() -> worker.getMXBean().getWorkerQueueSize() > 0);
            int port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
            study.run("http://127.0.0.1:" + port);
            String nonBlocking = nonBlocking(port);
            System.out.println("undertow " + NON_BLOCKING + " " + nonBlocking);
            String disconnect = disconnect(port);
            System.out.println("undertow " + DISCONNECT + " " + disconnect);
            awaitCompleted();
            if (!nonBlocking.startsWith("status 200 answered on XNIO-") || !disconnect.contains("bytes of HTTP/1.1 200")) {
                System.out.println("undertow: an answer was not the one expected");
                System.exit(1);
            }
            server.stop();
        }
    }

    /** On a worker: the study's handler for the study's paths; the disconnect's endless response. */
    private static void handleOnWorker(ServerStudy study, HttpServerExchange exchange) throws Exception {
        String path = exchange.getRequestPath();
        if (path.equals(DISCONNECT)) {
            writeUntilTheClientIsGone(exchange);
            return;
        }
        // The study's failing handler throws: Undertow answers 500.
        exchange.getResponseSender().send(study.handle(path));
    }

    /**
     * Writes a response with no end until a write fails: the client resets the connection once it
     * has read the start, and the IOException leaves the handler, as an application's would.
     */
    private static void writeUntilTheClientIsGone(HttpServerExchange exchange) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        OutputStream out = exchange.getOutputStream();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - deadline < 0) {
            out.write(chunk);
            out.flush();
        }
        throw new IllegalStateException("the client of " + DISCONNECT + " never went away");
    }

    private static String nonBlocking(int port) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            send(socket, NON_BLOCKING, NON_BLOCKING_TRACE);
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int body = response.indexOf("answered on");
            return response.startsWith("HTTP/1.1 200") && body > 0 ? "status 200 " + response.substring(body)
                    : "unexpected " + response;
        }
    }

    /** Reads the start of the endless response, then resets the connection (SO_LINGER 0: an RST, not a FIN). */
    private static String disconnect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        send(socket, DISCONNECT, DISCONNECT_TRACE);
        InputStream in = socket.getInputStream();
        int read = 0;
        byte[] buffer = new byte[READ_BEFORE_RESET];
        while (read < READ_BEFORE_RESET) {
            int n = in.read(buffer, read, READ_BEFORE_RESET - read);
            if (n < 0) {
                break;
            }
            read += n;
        }
        String head = new String(buffer, 0, Math.min(read, 12), StandardCharsets.US_ASCII);
        socket.setSoLinger(true, 0);
        socket.close();
        return "read " + read + " bytes of " + head + ", then reset";
    }

    private static void send(Socket socket, String path, int trace) throws IOException {
        String request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\ntraceparent: "
                + ServerStudy.traceparent(trace) + "\r\n\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    private static void awaitCompleted() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (completed.get() < began.get()) {
            if (System.nanoTime() - deadline > 0) {
                System.out.println("undertow: " + began.get() + " exchanges began, " + completed.get() + " completed");
                System.exit(1);
            }
            TimeUnit.MILLISECONDS.sleep(1);
        }
        System.out.println("undertow: " + completed.get() + " exchanges completed");
    }
}
