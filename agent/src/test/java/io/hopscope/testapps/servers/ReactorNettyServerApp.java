package io.hopscope.testapps.servers;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * {@link ServerStudy} on reactor-netty's {@code HttpServer} with {@link ServerStudy#SERVER_THREADS}
 * event loops ({@code study-loop-*}), routed with {@code HttpServer#route}: the loop that reads a
 * request runs its handler, which hands the study's blocking work to {@code boundedElastic} (never
 * blocking the loop). After the study, on the same server, each with a traceparent of its own
 * ({@link #STREAM}, {@link #DISCONNECT}, {@link #PIPELINED_FIRST} and the next):
 * <ul>
 * <li>a streaming response, {@link #CHUNKS} chunks {@link #CHUNK_MILLIS} ms apart from a
 * {@code Flux}, read to its end by the client;</li>
 * <li>an endless stream whose client disconnects (a reset) once it has read the first chunk: the
 * server must cancel the stream, which the app waits for;</li>
 * <li>two requests pipelined on one connection in one write, each answered after
 * {@link #SLOW_MILLIS} ms on another thread: reactor-netty holds the second until the first is over
 * (and a third behind them, whose answer says the second is over).</li>
 * </ul>
 * Uses only API that reactor-netty has had since 1.0 (the oldest tested).
 */
public final class ReactorNettyServerApp {

    public static final int CHUNKS = 5;
    public static final long CHUNK_MILLIS = 40;
    public static final long SLOW_MILLIS = 30;
    /** The traceparent numbers (ServerStudy#traceparent) of the requests after the study. */
    public static final int STREAM = 1001;
    public static final int DISCONNECT = 1002;
    public static final int PIPELINED_FIRST = 1003;

    public static void main(String[] args) throws Exception {
        LoopResources loops = LoopResources.create("study-loop", 1, ServerStudy.SERVER_THREADS, true);
        CountDownLatch cancelled = new CountDownLatch(1);
        try (ServerStudy study = new ServerStudy()) {
            DisposableServer server = HttpServer.create().host("127.0.0.1").port(0).runOn(loops)
                    .route(routes -> routes
                            .get(ServerStudy.ORDERS + "{id}", (request, response) -> response.sendString(
                                    handled(study, path(request.uri()))))
                            .get(ServerStudy.FAIL, (request, response) -> response.sendString(
                                    handled(study, ServerStudy.FAIL)))
                            .get("/stream", (request, response) -> response.sendString(
                                    Flux.interval(Duration.ofMillis(CHUNK_MILLIS)).take(CHUNKS).map(i -> "chunk " + i + "\n")))
                            .get("/endless", (request, response) -> response.sendString(
                                    Flux.interval(Duration.ofMillis(10)).map(i -> "chunk " + i + "\n")
                                            .doOnCancel(cancelled::countDown)))
                            .get("/slow/{n}", (request, response) -> response.sendString(
                                    Mono.delay(Duration.ofMillis(SLOW_MILLIS)).map(i -> "slow " + request.param("n")))))
                    .bindNow();
            study.run("http://127.0.0.1:" + server.port());
            stream(server.port());
            disconnect(server.port(), cancelled);
            pipelined(server.port());
            server.disposeNow();
        }
        loops.dispose();
    }

    private static Mono<String> handled(ServerStudy study, String path) {
        return Mono.fromCallable(() -> study.handle(path)).subscribeOn(Schedulers.boundedElastic());
    }

    private static String path(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    private static void stream(int port) throws Exception {
        HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/stream").openConnection();
        c.setRequestProperty("traceparent", ServerStudy.traceparent(STREAM));
        String body;
        try (InputStream in = c.getInputStream()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        int chunks = body.split("\n").length;
        System.out.println("stream status " + c.getResponseCode() + " chunks " + chunks);
        if (c.getResponseCode() != 200 || chunks != CHUNKS) {
            fail("the stream's client read " + chunks + " chunks: " + body);
        }
    }

    /** Reads the endless stream's head and first chunk, then resets the connection. */
    private static void disconnect(int port, CountDownLatch cancelled) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            socket.setSoTimeout(10_000);
            send(socket, "/endless", DISCONNECT);
            readUntil(socket.getInputStream(), "chunk 0");
            socket.setSoLinger(true, 0); // closing sends a reset: the server's next write or read fails
        }
        boolean ended = cancelled.await(30, TimeUnit.SECONDS);
        System.out.println("disconnect cancelled " + ended);
        if (!ended) {
            fail("the server did not cancel the endless stream of a client that went away");
        }
    }

    /** Two requests in one write on one connection; both answers read back. */
    private static void pipelined(int port) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            socket.setSoTimeout(10_000);
            // A third behind the two checked: reactor-netty ends an exchange with a write of no bytes
            // (its last content) after the body, so a client that closed on the second's body could
            // be gone before that write, and the second would rightly end cancelled. A pipelined
            // request is replayed only once the one before it has ended: the third's answer says
            // the second is over.
            send(socket, "/slow/1", PIPELINED_FIRST, "/slow/2", PIPELINED_FIRST + 1, "/slow/3", PIPELINED_FIRST + 2);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String answers = RawHttp.read(in).body() + RawHttp.read(in).body() + RawHttp.read(in).body();
            if (!answers.equals("slow 1slow 2slow 3")) {
                fail("the pipelined requests were answered " + answers);
            }
            System.out.println("pipelined answered");
        }
    }

    private static void send(Socket socket, Object... pathsAndTraces) throws Exception {
        StringBuilder requests = new StringBuilder();
        for (int i = 0; i < pathsAndTraces.length; i += 2) {
            requests.append("GET ").append(pathsAndTraces[i]).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\ntraceparent: ")
                    .append(ServerStudy.traceparent((Integer) pathsAndTraces[i + 1])).append("\r\n\r\n");
        }
        OutputStream out = socket.getOutputStream();
        out.write(requests.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static void readUntil(InputStream in, String text) throws Exception {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (!read.toString(StandardCharsets.US_ASCII).contains(text)) {
            int n = in.read(buffer);
            if (n < 0) {
                fail("the connection closed before \"" + text + "\": " + read.toString(StandardCharsets.US_ASCII));
            }
            read.write(buffer, 0, n);
        }
    }

    private static void fail(String why) {
        System.out.println("app: " + why);
        System.exit(1);
    }
}
