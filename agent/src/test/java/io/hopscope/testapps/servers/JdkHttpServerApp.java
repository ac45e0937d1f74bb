package io.hopscope.testapps.servers;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@link ServerStudy} on the JDK's HTTP server with an executor of {@link ServerStudy#SERVER_THREADS}
 * threads ({@code HttpServer#setExecutor}): the dispatcher hands each exchange to it.
 */
public final class JdkHttpServerApp {

    public static void main(String[] args) throws Exception {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(ServerStudy.SERVER_THREADS, ServerStudy.SERVER_THREADS,
                0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> new Thread(r, "jdk-server-worker"));
        try (ServerStudy study = new ServerStudy()) {
            study.queuedWhen(() -> !executor.getQueue().isEmpty());
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                String body;
                try {
                    body = study.handle(exchange.getRequestURI().getPath());
                } catch (Exception e) {
                    throw new RuntimeException(e); // the server drops the connection
                }
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, bytes.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            });
            server.setExecutor(executor);
            server.start();
            study.run("http://127.0.0.1:" + server.getAddress().getPort());
            server.stop(0);
        }
        executor.shutdown();
    }
}
