package io.hopscope.testapps;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Credentials;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Requests that carry secrets the agent must never record, against the JDK's HTTP server on
 * 127.0.0.1: a SAS-style query (sig=, token=, code=, password=), user-info in the URL, and
 * Authorization, Proxy-Authorization, Cookie and x-ms-*-key headers; through OkHttp (execute and
 * enqueue) and the JDK's HttpClient (send and sendAsync). Each secret is a value of its own
 * (PLANTED_* constants) that the test greps the whole recording for. Prints "ok N" for N valid
 * responses.
 */
public final class SecretsApp {

    public static final String[] SECRETS = {"PlantedSig4711", "PlantedToken4711", "PlantedCode4711",
        "PlantedPassword4711", "PlantedUserInfoPass4711", "PlantedBearer4711", "PlantedProxyAuth4711",
        "PlantedCookie4711", "PlantedAccountKey4711"};

    private SecretsApp() {
    }

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/container/blob", exchange -> {
            byte[] body = "blob".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        AtomicInteger ok = new AtomicInteger();
        String hostPort = "127.0.0.1:" + server.getAddress().getPort();
        String query = "/container/blob?comp=list&sig=" + SECRETS[0] + "&token=" + SECRETS[1] + "&code=" + SECRETS[2]
                + "&password=" + SECRETS[3];
        try {
            OkHttpClient okhttp = new OkHttpClient();
            Request request = new Request.Builder().url("http://reader:" + SECRETS[4] + "@" + hostPort + query)
                    .header("Authorization", "Bearer " + SECRETS[5])
                    .header("Proxy-Authorization", Credentials.basic("proxy", SECRETS[6]))
                    .header("Cookie", "session=" + SECRETS[7])
                    .header("x-ms-account-key", SECRETS[8])
                    .build();
            try (Response response = okhttp.newCall(request).execute()) {
                count(ok, response.code(), response.body().string());
            }
            CompletableFuture<Void> enqueued = new CompletableFuture<>();
            okhttp.newCall(request).enqueue(new Callback() {
                @Override
                public void onResponse(Call call, Response response) throws IOException {
                    try (response) {
                        count(ok, response.code(), response.body().string());
                    }
                    enqueued.complete(null);
                }

                @Override
                public void onFailure(Call call, IOException e) {
                    enqueued.completeExceptionally(e);
                }
            });
            enqueued.get();

            HttpClient jdk = HttpClient.newHttpClient();
            java.net.http.HttpRequest jdkRequest = java.net.http.HttpRequest.newBuilder(URI.create("http://" + hostPort + query))
                    .header("Authorization", "Bearer " + SECRETS[5])
                    .header("Cookie", "session=" + SECRETS[7])
                    .header("x-ms-account-key", SECRETS[8])
                    .build();
            HttpResponse<String> sent = jdk.send(jdkRequest, HttpResponse.BodyHandlers.ofString());
            count(ok, sent.statusCode(), sent.body());
            HttpResponse<String> async = jdk.sendAsync(jdkRequest, HttpResponse.BodyHandlers.ofString()).get();
            count(ok, async.statusCode(), async.body());
            okhttp.dispatcher().executorService().shutdown();
            okhttp.connectionPool().evictAll();
        } finally {
            server.stop(0);
        }
        System.out.println("ok " + ok.get());
    }

    private static void count(AtomicInteger ok, int status, String body) {
        if (status == 200 && "blob".equals(body)) {
            ok.incrementAndGet();
        }
    }
}
