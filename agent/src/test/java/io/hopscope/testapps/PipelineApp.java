package io.hopscope.testapps;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.http.okhttp.OkHttpAsyncHttpClientBuilder;
import com.azure.core.http.policy.FixedDelay;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import com.azure.core.http.policy.RequestIdPolicy;
import com.azure.core.http.policy.RetryPolicy;
import com.azure.core.http.policy.UserAgentPolicy;
import com.azure.core.util.Context;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * The samples' azure-core pipeline outside the samples: the same policies (the sample's two custom
 * ones as nested classes here), on OkHttp with {@code sendSync}, then on Netty with
 * {@code send().block()}, each COUNT requests from two caller threads ("pipeline-caller-N"). For
 * the JDK 11 runs (the samples are built for 17, and their server is Jetty 12), against the server
 * at URL, which the test runs in its own JVM; for each tested end of azure-core's range, against
 * {@link ClientServer} in this JVM. Written against the API azure-core 1.30, the oldest release
 * supported, has too (headers by name: HttpHeaderName came later). Exits 1 unless every response is
 * 200 with a body.
 *
 * <p>Usage: PipelineApp [URL] COUNT (on a class path with azure-core and its OkHttp and Netty clients:
 * the samples jar, or a testlibs end)
 */
public final class PipelineApp {

    /** The policies in pipeline order, by the names their spans carry (PipelineIT checks them). */
    public static final List<String> POLICIES = List.of("com.azure.core.http.policy.UserAgentPolicy",
            "com.azure.core.http.policy.RequestIdPolicy", "com.azure.core.http.policy.RetryPolicy",
            ClientTagPolicy.class.getName(), AsyncOnlyPolicy.class.getName());

    private PipelineApp() {
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[args.length - 1]);
        AtomicInteger ok = new AtomicInteger();
        if (args.length > 1) {
            bothWays(new URL(args[0]), count, ok);
        } else {
            try (ClientServer server = new ClientServer()) {
                bothWays(URI.create(server.helloUrl()).toURL(), count, ok);
            }
        }
        // Exit now either way: the HTTP clients' threads (Netty's loops, OkHttp's pool) would keep the JVM a while.
        System.out.println("responses ok: " + ok.get() + " of " + 2 * count);
        System.exit(ok.get() == 2 * count ? 0 : 1);
    }

    private static void bothWays(URL url, int count, AtomicInteger ok) throws InterruptedException {
        run(pipeline(new OkHttpAsyncHttpClientBuilder().build(), "okhttp"), url, count, true, ok);
        run(pipeline(new NettyAsyncHttpClientBuilder().build(), "netty"), url, count, false, ok);
    }

    private static HttpPipeline pipeline(HttpClient client, String clientName) {
        return new HttpPipelineBuilder().httpClient(client)
                .policies(new UserAgentPolicy("hopscope-tests/0.1.0"), new RequestIdPolicy(),
                        new RetryPolicy(new FixedDelay(2, Duration.ofMillis(10))), new ClientTagPolicy(clientName),
                        new AsyncOnlyPolicy())
                .build();
    }

    /** COUNT calls shared by two caller threads: sendSync (sync) or send().block() (sync-over-async). */
    private static void run(HttpPipeline pipeline, URL url, int count, boolean sync, AtomicInteger ok)
            throws InterruptedException {
        AtomicInteger tickets = new AtomicInteger();
        List<Thread> callers = new ArrayList<>();
        for (int c = 1; c <= 2; c++) {
            Thread t = new Thread(() -> {
                while (tickets.incrementAndGet() <= count) {
                    try {
                        if (callOnce(pipeline, url, sync)) {
                            ok.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        e.printStackTrace();
                    }
                }
            }, "pipeline-caller-" + c);
            callers.add(t);
            t.start();
        }
        for (Thread t : callers) {
            t.join();
        }
    }

    private static boolean callOnce(HttpPipeline pipeline, URL url, boolean sync) {
        HttpRequest request = new HttpRequest(HttpMethod.GET, url);
        if (sync) {
            try (HttpResponse response = pipeline.sendSync(request, Context.NONE)) {
                return response.getStatusCode() == 200 && response.getBodyAsBinaryData().toBytes().length > 0;
            }
        }
        // The SDK's sync-over-async: build the reactive chain, then park the caller in block().
        Boolean good = pipeline.send(request)
                .flatMap(response -> response.getBodyAsByteArray().defaultIfEmpty(new byte[0])
                        .map(body -> response.getStatusCode() == 200 && body.length > 0)
                        .doFinally(s -> response.close()))
                .block();
        return Boolean.TRUE.equals(good);
    }

    /** The sample's ClientTagPolicy: a synchronous policy (HttpPipelineSyncPolicy) that tags each request. */
    static final class ClientTagPolicy extends HttpPipelineSyncPolicy {
        static final String HEADER = "x-hopscope-client";
        private final String clientName;

        ClientTagPolicy(String clientName) {
            this.clientName = clientName;
        }

        @Override
        protected void beforeSendingRequest(HttpPipelineCallContext context) {
            context.getHttpRequest().setHeader(HEADER, clientName);
        }
    }

    /** The sample's AsyncOnlyPolicy: only the reactive process, which the sync path bridges into. */
    static final class AsyncOnlyPolicy implements HttpPipelinePolicy {
        static final String HEADER = "x-hopscope-async-policy";

        @Override
        public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
            return Mono.defer(() -> {
                context.getHttpRequest().setHeader(HEADER, Long.toString(System.nanoTime()));
                return next.process();
            });
        }
    }
}
