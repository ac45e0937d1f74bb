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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * The samples' azure-core pipeline (retry, user-agent, request-id, a synchronous and an async-only
 * policy of the application's) against {@link ClientServer}, both ways an SDK's synchronous call
 * runs: over OkHttp with sendSync, then over Netty with send().block(), each {@code count} requests
 * from two caller threads ("pipeline-caller-N"). Written against the API that azure-core 1.30, the
 * oldest release supported, has too (no HttpHeaderName: headers by their names). Argument: count.
 */
public final class PipelineApp {

    private PipelineApp() {
    }

    /** A policy of the application's that runs inline on both paths (azure-core's sync base class). */
    static final class TagPolicy extends HttpPipelineSyncPolicy {
        private final String client;

        TagPolicy(String client) {
            this.client = client;
        }

        @Override
        protected void beforeSendingRequest(HttpPipelineCallContext context) {
            context.getHttpRequest().setHeader("x-hopscope-client", client);
        }
    }

    /** A policy with only the reactive process: on the sync path azure-core bridges into it. */
    static final class AsyncOnlyPolicy implements HttpPipelinePolicy {
        @Override
        public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
            return Mono.defer(() -> {
                context.getHttpRequest().setHeader("x-hopscope-async-policy", Long.toString(System.nanoTime()));
                return next.process();
            });
        }
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int ok;
        try (ClientServer server = new ClientServer()) {
            URL url = URI.create(server.helloUrl()).toURL();
            ok = run(pipeline(new OkHttpAsyncHttpClientBuilder().build(), "okhttp"), url, count, true)
                    + run(pipeline(new NettyAsyncHttpClientBuilder().build(), "netty"), url, count, false);
        }
        // Exit now: the HTTP clients' threads (Netty's loops, OkHttp's pool) would keep the JVM a while.
        ClientServer.report(ok, 2 * count, 0, 0);
        System.exit(0);
    }

    static HttpPipeline pipeline(HttpClient client, String name) {
        return new HttpPipelineBuilder().httpClient(client)
                .policies(new UserAgentPolicy("hopscope-tests"), new RequestIdPolicy(),
                        new RetryPolicy(new FixedDelay(2, Duration.ofMillis(10))), new TagPolicy(name),
                        new AsyncOnlyPolicy())
                .build();
    }

    /** {@code count} calls from two caller threads; the number answered with the server's body. */
    static int run(HttpPipeline pipeline, URL url, int count, boolean sync) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger ok = new AtomicInteger();
        List<Thread> callers = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            Thread caller = new Thread(() -> {
                while (next.getAndIncrement() < count) {
                    if (ClientServer.BODY.equals(sync ? sendSync(pipeline, url) : sendBlock(pipeline, url))) {
                        ok.incrementAndGet();
                    }
                }
            }, "pipeline-caller-" + i);
            callers.add(caller);
            caller.start();
        }
        for (Thread caller : callers) {
            caller.join();
        }
        return ok.get();
    }

    /** An SDK's synchronous call: the pipeline's sync path, on the caller thread. */
    static String sendSync(HttpPipeline pipeline, URL url) {
        try (HttpResponse response = pipeline.sendSync(new HttpRequest(HttpMethod.GET, url), Context.NONE)) {
            return response.getStatusCode() == 200
                    ? new String(response.getBodyAsBinaryData().toBytes(), StandardCharsets.UTF_8) : null;
        }
    }

    /** The SDK's sync-over-async: the reactive chain, then the caller parked in block(). */
    static String sendBlock(HttpPipeline pipeline, URL url) {
        return pipeline.send(new HttpRequest(HttpMethod.GET, url))
                .flatMap(response -> response.getBodyAsByteArray()
                        .defaultIfEmpty(new byte[0])
                        .map(body -> response.getStatusCode() == 200 ? new String(body, StandardCharsets.UTF_8) : "")
                        .doFinally(s -> response.close()))
                .block();
    }
}
