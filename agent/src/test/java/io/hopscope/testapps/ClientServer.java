package io.hopscope.testapps;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;

/**
 * The JDK's HTTP server on 127.0.0.1 that the HTTP client apps call: /hello answers 200 "hello".
 * Their URLs carry a secret (sig) that the agent must redact and an allow-listed parameter (comp)
 * it keeps; {@link #refusedUrl()} is one where nothing listens, for a request that fails.
 */
final class ClientServer implements AutoCloseable {

    static final String BODY = "hello";

    private final HttpServer server;

    ClientServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hello", exchange -> {
            byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    String helloUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hello?sig=SECRET&comp=list";
    }

    /** A port that was free a moment ago and that nothing listens on: the connection is refused. */
    static String refusedUrl() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        return "http://127.0.0.1:" + port + "/refused?sig=SECRET";
    }

    /** Prints the counts the ITs read and exits non-zero when they are not the expected ones. */
    static void report(int ok, int expectedOk, int failed, int expectedFailed) {
        System.out.println("responses ok: " + ok + ", failed: " + failed);
        if (ok != expectedOk || failed != expectedFailed) {
            System.exit(1);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
