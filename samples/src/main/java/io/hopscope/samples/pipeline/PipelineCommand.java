package io.hopscope.samples.pipeline;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.http.okhttp.OkHttpAsyncHttpClientBuilder;
import com.azure.core.http.policy.FixedDelay;
import com.azure.core.http.policy.RequestIdPolicy;
import com.azure.core.http.policy.RetryPolicy;
import com.azure.core.http.policy.UserAgentPolicy;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import io.hopscope.samples.common.ClosedLoop;
import io.hopscope.samples.common.ClosedLoopOptions;
import io.hopscope.samples.common.Options;
import io.hopscope.samples.common.ResponseCheckException;
import io.hopscope.samples.common.RunFigures;
import io.hopscope.samples.common.Target;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code pipeline}: the Azure SDK sync-stack study, a real azure-core HttpPipeline in a closed loop. */
@Command(name = "pipeline", mixinStandardHelpOptions = true,
        description = {"azure-core HttpPipeline (retry, user-agent, request-id, a synchronous and an "
                + "async-only custom policy) over OkHttp, Netty or the JDK client, N caller threads "
                + "(platform or virtual) in a closed loop; prints ops/s, latency percentiles, allocation, GC "
                + "and threads.",
                "Example: pipeline --mode sync-over-async --http-client netty --parallel 4 --duration 5",
                "Example: pipeline --http-client okhttp --callers virtual --parallel 64 --duration 5 (JDK 21+)"})
public final class PipelineCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--mode", defaultValue = "sync", description = "sync (sendSync) or sync-over-async (send().block()); default ${DEFAULT-VALUE}.")
    String mode;

    @Option(names = "--http-client", defaultValue = "okhttp", description = "okhttp, netty or jdk (default ${DEFAULT-VALUE}).")
    String httpClient;

    @Option(names = "--parallel", defaultValue = "1", description = "Caller threads, closed loop (default ${DEFAULT-VALUE}).")
    int parallel;

    @Mixin
    ClosedLoopOptions loop;

    @Override
    public Integer call() throws Exception {
        Options.oneOf(spec, "--mode", mode, "sync", "sync-over-async");
        Options.oneOf(spec, "--http-client", httpClient, "okhttp", "netty", "jdk");
        Options.atLeast(spec, "--parallel", parallel, 1);
        loop.check(spec);

        boolean sync = "sync".equals(mode);
        HttpClient client = buildClient(httpClient);
        HttpPipeline pipeline = new HttpPipelineBuilder()
                .httpClient(client)
                .policies(new UserAgentPolicy("hopscope-samples/0.1.0"),
                        new RequestIdPolicy(),
                        new RetryPolicy(new FixedDelay(2, Duration.ofMillis(10))),
                        new ClientTagPolicy(httpClient),
                        new AsyncOnlyPolicy())
                .build();
        byte[] payload = new byte[loop.uploadBytes];
        RunFigures figures = new RunFigures();
        figures.measureFirstWindow(loop.firstWindowS);
        try (Target target = loop.server.open(spec)) {
            URI requestUri = target.requestUri(loop.uploadBytes > 0, loop.server.responseBytes, loop.server.delayMs);
            ClosedLoop.Operation op = () -> callOnce(pipeline, requestUri, payload, sync);
            ClosedLoop.run(loop.callerThreads("pipeline-caller-"), parallel, loop.warmupS, loop.measuredSeconds(), loop.measuredCount(), figures, op);
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("scenario", "pipeline");
        settings.put("mode", mode);
        settings.put("http_client", httpClient);
        settings.put("parallel", parallel);
        loop.putSettings(settings);
        figures.print(System.out, settings);
        return 0;
    }

    /**
     * One call through the pipeline. A named method, not the loop's lambda, so that a tracer can open a
     * span around each call by name (the OpenTelemetry agent's {@code otel.instrumentation.methods.include},
     * as the trace-id IT does): the call is then made in that span, as an SDK call is in a server's.
     */
    private void callOnce(HttpPipeline pipeline, URI requestUri, byte[] payload, boolean sync) throws Exception {
        HttpRequest request = new HttpRequest(loop.uploadBytes > 0 ? HttpMethod.POST : HttpMethod.GET,
                requestUri.toURL());
        if (loop.uploadBytes > 0) {
            request.setHeader(HttpHeaderName.CONTENT_LENGTH, Integer.toString(loop.uploadBytes));
            request.setBody(BinaryData.fromBytes(payload));
        }
        if (sync) {
            try (HttpResponse response = pipeline.sendSync(request, Context.NONE)) {
                check(response, response.getBodyAsBinaryData().toBytes().length);
            }
        } else {
            // The SDK's sync-over-async: build the reactive chain, then park the caller in block().
            Integer bodyBytes = pipeline.send(request)
                    .flatMap(response -> response.getBodyAsByteArray()
                            .defaultIfEmpty(new byte[0])
                            .map(body -> {
                                check(response, body.length);
                                return body.length;
                            })
                            .doFinally(s -> response.close()))
                    .block();
            if (bodyBytes == null) {
                throw new ResponseCheckException("no response");
            }
        }
    }

    private void check(HttpResponse response, long bodyBytes) {
        Target.validate(response.getStatusCode(), bodyBytes, loop.server.responseBytes);
        if (loop.uploadBytes > 0) {
            String received = response.getHeaderValue(HttpHeaderName.fromString("X-Received-Bytes"));
            if (!Integer.toString(loop.uploadBytes).equals(received)) {
                throw new ResponseCheckException("server received " + received + " upload bytes, sent " + loop.uploadBytes);
            }
        }
    }

    private static HttpClient buildClient(String name) {
        switch (name) {
            case "okhttp":
                return new OkHttpAsyncHttpClientBuilder().build();
            case "netty":
                return new NettyAsyncHttpClientBuilder().build();
            default:
                return new JdkHttpClientBuilder().build();
        }
    }
}
