package io.hopscope.samples.pipeline;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;

/**
 * A custom policy that implements only the reactive {@code process}: on the sync path azure-core's
 * default {@code processSync} has to bridge into it and block, which is one of the hops the sync
 * stack study found. It sums the time spent below it in the pipeline.
 */
final class AsyncOnlyTimingPolicy implements HttpPipelinePolicy {

    private final AtomicLong belowNanos = new AtomicLong();

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            return next.process().doOnNext(r -> belowNanos.addAndGet(System.nanoTime() - start));
        });
    }

    long belowNanos() {
        return belowNanos.get();
    }
}
