package io.hopscope.testapps;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * OkHttp's asynchronous call (Call#enqueue) against the JDK's HTTP server on 127.0.0.1: the request
 * hands over to OkHttp's dispatcher thread and ends in the callback, through one application
 * interceptor. Argument: request count.
 */
public final class OkHttpEnqueueApp {

    /** The application's own interceptor: a span, unlike OkHttp's internal ones by default. */
    static final class TagInterceptor implements Interceptor {
        @Override
        public Response intercept(Chain chain) throws IOException {
            return chain.proceed(chain.request().newBuilder().header("x-app", "enqueue-test").build());
        }
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hello", exchange -> {
            byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        OkHttpClient client = new OkHttpClient.Builder().addInterceptor(new TagInterceptor()).build();
        AtomicInteger ok = new AtomicInteger();
        try {
            for (int i = 0; i < count; i++) {
                CountDownLatch done = new CountDownLatch(1);
                Request request = new Request.Builder()
                        .url("http://127.0.0.1:" + server.getAddress().getPort() + "/hello?sig=SECRET&comp=list")
                        .build();
                client.newCall(request).enqueue(new Callback() {
                    @Override
                    public void onResponse(Call call, Response response) throws IOException {
                        try (response) {
                            if (response.code() == 200 && response.body().string().equals("hello")) {
                                ok.incrementAndGet();
                            }
                        }
                        done.countDown();
                    }

                    @Override
                    public void onFailure(Call call, IOException e) {
                        done.countDown();
                    }
                });
                if (!done.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no callback for request " + i);
                }
            }
        } finally {
            server.stop(0);
            client.dispatcher().executorService().shutdown();
            client.connectionPool().evictAll();
        }
        System.out.println("responses ok: " + ok.get());
        if (ok.get() != count) {
            System.exit(1);
        }
    }
}
