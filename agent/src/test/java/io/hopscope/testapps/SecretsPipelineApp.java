package io.hopscope.testapps;

import com.azure.core.credential.AzureSasCredential;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.http.okhttp.OkHttpAsyncHttpClientBuilder;
import com.azure.core.http.policy.AddHeadersPolicy;
import com.azure.core.http.policy.AzureSasCredentialPolicy;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import com.azure.core.util.Context;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * The secrets of {@link SecretsApp}, sent through azure-core {@link HttpPipeline}s on OkHttp and on
 * Netty, each request both ways an SDK call runs (sendSync, and send().block()). The secrets are
 * put in by the pipeline, as an SDK's policies do: a SAS signature appended to the query by
 * azure-core's {@link AzureSasCredentialPolicy}, Authorization, Proxy-Authorization, Cookie and
 * x-ms-account-key by its {@link AddHeadersPolicy}, a SharedKey Authorization and an
 * x-ms-encryption-key by a policy of the application's own; token=, code=, password= and a
 * secret= that is not ASCII are in the URL the application gives, and user-info too on OkHttp.
 * Per client and way: a request served (200), one served after 30 ms (the caller parks: a JDK
 * event with a stack trace), one answered 401, which a policy turns into an
 * {@link HttpResponseException} whose message holds the whole URL and the Authorization header (as
 * a careless SDK's error would), and one to a closed port (connection refused); on Netty, one more
 * with user-info, which it fails to resolve as a host name with the user-info in the exception's
 * message. The server checks that each request it gets carries every secret meant to reach it.
 * Prints "ok N failed N carried N".
 */
public final class SecretsPipelineApp {

    static final String[] SECRETS = SecretsApp.SECRETS;
    /**
     * Secrets only this app sends: a SharedKey signature, an x-ms-encryption-key, and a query value
     * that is not ASCII (its UTF-8, Latin-1 and JFR char-array bytes differ; the clients send it
     * percent-encoded).
     */
    public static final String[] PIPELINE_SECRETS = {"PlantedSharedKey4711", "PlantedEncryptionKey4711",
        "PlantedSchl\u00fcssel4711"};

    private static final HttpHeaderName ACCOUNT_KEY = HttpHeaderName.fromString("x-ms-account-key");
    private static final HttpHeaderName ENCRYPTION_KEY = HttpHeaderName.fromString("x-ms-encryption-key");
    private static final HttpHeaderName PROXY_AUTHORIZATION = HttpHeaderName.fromString("Proxy-Authorization");

    private SecretsPipelineApp() {
    }

    /**
     * With the argument {@code clients}, {@link SecretsApp}'s requests first, in the same JVM: one
     * start with the agent for both apps' secrets.
     */
    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("clients")) {
            SecretsApp.main(new String[0]);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        AtomicInteger carried = new AtomicInteger();
        server.createContext("/container/", exchange -> {
            if (carriesEverySecret(exchange)) {
                carried.incrementAndGet();
            }
            String path = exchange.getRequestURI().getPath();
            if (path.endsWith("/denied")) {
                exchange.sendResponseHeaders(401, -1);
                exchange.close();
                return;
            }
            if (path.endsWith("/slow")) {
                sleep(30);
            }
            byte[] body = "blob".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            closedPort = socket.getLocalPort();
        }
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        try {
            String served = "127.0.0.1:" + server.getAddress().getPort();
            String refused = "127.0.0.1:" + closedPort;
            for (String clientName : new String[] {"okhttp", "netty"}) {
                HttpPipeline pipeline = pipeline(clientName.equals("okhttp")
                        ? new OkHttpAsyncHttpClientBuilder().build() : new NettyAsyncHttpClientBuilder().build());
                // azure-core-http-netty takes user-info for part of the host name: a URL with it fails
                // to resolve, with the user-info in the exception's message.
                String userInfo = clientName.equals("okhttp") ? "reader:" + SECRETS[4] + "@" : "";
                for (boolean sync : new boolean[] {true, false}) {
                    for (String path : new String[] {"blob", "slow"}) {
                        try (HttpResponse response = send(pipeline, sync, url(userInfo + served, path))) {
                            if (response.getStatusCode() == 200 && "blob".equals(response.getBodyAsBinaryData().toString())) {
                                ok.incrementAndGet();
                            }
                        }
                    }
                    fail(pipeline, sync, url(userInfo + served, "denied"), HttpResponseException.class, failed);
                    fail(pipeline, sync, url(userInfo + refused, "blob"), ConnectException.class, failed);
                    if (userInfo.isEmpty()) {
                        fail(pipeline, sync, url("reader:" + SECRETS[4] + "@" + served, "blob"),
                                UnknownHostException.class, failed);
                    }
                }
            }
        } finally {
            server.stop(0);
        }
        System.out.println("ok " + ok.get() + " failed " + failed.get() + " carried " + carried.get());
        System.exit(0); // Netty's and OkHttp's threads would keep the JVM up a while
    }

    /** Sends a request that must fail with {@code expected} (or a cause of that type), and counts it. */
    private static void fail(HttpPipeline pipeline, boolean sync, String url, Class<? extends Throwable> expected,
            AtomicInteger failed) {
        try (HttpResponse response = send(pipeline, sync, url)) {
            throw new AssertionError("no " + expected.getSimpleName() + " but status " + response.getStatusCode());
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (expected.isInstance(t)) {
                    failed.incrementAndGet();
                    return;
                }
            }
            throw e;
        }
    }

    private static HttpResponse send(HttpPipeline pipeline, boolean sync, String url) {
        HttpRequest request = new HttpRequest(HttpMethod.GET, url);
        return sync ? pipeline.sendSync(request, Context.NONE) : pipeline.send(request).block();
    }

    /** The URL an application gives: secrets in the query beside the kept comp=list. */
    private static String url(String authority, String path) {
        return "http://" + authority + "/container/" + path + "?comp=list&token=" + SECRETS[1]
                + "&code=" + SECRETS[2] + "&password=" + SECRETS[3] + "&secret=" + PIPELINE_SECRETS[2];
    }

    private static HttpPipeline pipeline(HttpClient client) {
        HttpHeaders headers = new HttpHeaders()
                .set(PROXY_AUTHORIZATION, "Basic " + Base64.getEncoder().encodeToString(
                        ("proxy:" + SECRETS[6]).getBytes(StandardCharsets.UTF_8)))
                .set(HttpHeaderName.COOKIE, "session=" + SECRETS[7])
                .set(ACCOUNT_KEY, SECRETS[8]);
        return new HttpPipelineBuilder()
                .httpClient(client)
                .policies(new AzureSasCredentialPolicy(new AzureSasCredential("sv=2025-01-05&sp=r&sig=" + SECRETS[0]), false),
                        new AddHeadersPolicy(headers),
                        new SharedKeyPolicy(),
                        new ErrorPolicy())
                .build();
    }

    /** Whether a request brought every secret the pipeline and the URL put in (user-info never reaches a server). */
    private static boolean carriesEverySecret(HttpExchange exchange) {
        // OkHttp sends the value that is not ASCII percent-encoded, Netty as raw UTF-8, which the
        // JDK's server reads as Latin-1.
        String query = URLDecoder.decode(new String(exchange.getRequestURI().getRawQuery()
                .getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        String all = query + " " + exchange.getRequestHeaders().getFirst("Authorization") + " "
                + exchange.getRequestHeaders().getFirst("Proxy-Authorization") + " "
                + exchange.getRequestHeaders().getFirst("Cookie") + " "
                + exchange.getRequestHeaders().getFirst("x-ms-account-key") + " "
                + exchange.getRequestHeaders().getFirst("x-ms-encryption-key");
        String proxy = Base64.getEncoder().encodeToString(("proxy:" + SECRETS[6]).getBytes(StandardCharsets.UTF_8));
        return all.contains("sig=" + SECRETS[0]) && all.contains("token=" + SECRETS[1]) && all.contains("code=" + SECRETS[2])
                && all.contains("password=" + SECRETS[3]) && all.contains(proxy) && all.contains(SECRETS[7])
                && all.contains(SECRETS[8]) && all.contains("SharedKey reader:" + PIPELINE_SECRETS[0])
                && all.contains(PIPELINE_SECRETS[1]) && all.contains("secret=" + PIPELINE_SECRETS[2]);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The application's own signing policy: a SharedKey Authorization and an encryption key, on both paths. */
    static final class SharedKeyPolicy implements HttpPipelinePolicy {
        @Override
        public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
            sign(context.getHttpRequest());
            return next.process();
        }

        @Override
        public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
            sign(context.getHttpRequest());
            return next.processSync();
        }

        private static void sign(HttpRequest request) {
            request.setHeader(HttpHeaderName.AUTHORIZATION, "SharedKey reader:" + PIPELINE_SECRETS[0]);
            request.setHeader(ENCRYPTION_KEY, PIPELINE_SECRETS[1]);
        }
    }

    /** Turns an error status into an exception whose message holds the URL and the Authorization header. */
    static final class ErrorPolicy extends HttpPipelineSyncPolicy {
        @Override
        protected HttpResponse afterReceivedResponse(HttpPipelineCallContext context, HttpResponse response) {
            if (response.getStatusCode() >= 400) {
                HttpRequest request = context.getHttpRequest();
                response.close();
                throw new HttpResponseException("Status code " + response.getStatusCode() + ", " + request.getHttpMethod()
                        + " " + request.getUrl() + " with Authorization "
                        + request.getHeaders().getValue(HttpHeaderName.AUTHORIZATION), response);
            }
            return response;
        }
    }
}
