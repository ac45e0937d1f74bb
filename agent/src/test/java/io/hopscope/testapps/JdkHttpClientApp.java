package io.hopscope.testapps;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The samples' {@code jdk-http --mode sync} for the JDK 11 runs (the samples are built for 17): one
 * producer thread calls {@code HttpClient#send} COUNT times on a client whose executor has two
 * threads ({@code jdk-http-io-N}), against the server at URL, which the test runs in its own JVM
 * (PyPI's JDK 11 has no jdk.httpserver). Exits 1 unless every response is 200.
 *
 * <p>Usage: JdkHttpClientApp URL COUNT
 */
public final class JdkHttpClientApp {

    private JdkHttpClientApp() {
    }

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[0]);
        int count = Integer.parseInt(args[1]);
        AtomicInteger ioIndex = new AtomicInteger();
        ExecutorService io = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "jdk-http-io-" + ioIndex.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        HttpClient client = HttpClient.newBuilder().executor(io).version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build();
        AtomicInteger ok = new AtomicInteger();
        Thread producer = new Thread(() -> {
            for (int i = 0; i < count; i++) {
                try {
                    if (client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
                        ok.incrementAndGet();
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                }
            }
        }, "jdk-http-producer-1");
        producer.start();
        producer.join();
        io.shutdownNow();
        io.awaitTermination(2, TimeUnit.SECONDS);
        System.out.println("responses ok: " + ok.get() + " of " + count);
        System.exit(ok.get() == count ? 0 : 1);
    }
}
