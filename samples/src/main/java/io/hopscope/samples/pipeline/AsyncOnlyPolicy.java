package io.hopscope.samples.pipeline;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import reactor.core.publisher.Mono;

/**
 * A custom policy that implements only the reactive {@code process}, as many older policies do: on
 * the sync path azure-core's default {@code processSync} has to bridge into it and block, which is one
 * of the hops the sync-stack study found. It stamps each attempt with the time it went down the pipeline.
 */
final class AsyncOnlyPolicy implements HttpPipelinePolicy {

    static final HttpHeaderName HEADER = HttpHeaderName.fromString("x-hopscope-async-policy");

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        return Mono.defer(() -> {
            context.getHttpRequest().setHeader(HEADER, Long.toString(System.nanoTime()));
            return next.process();
        });
    }
}
