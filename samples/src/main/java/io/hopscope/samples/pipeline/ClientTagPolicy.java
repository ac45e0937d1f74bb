package io.hopscope.samples.pipeline;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A custom synchronous policy ({@code HttpPipelineSyncPolicy}, the class azure-core ships for what
 * is often called a "synchronous policy"; the kind azure-core runs inline on both the sync and the async
 * path): tags each request with the HTTP client under test and counts the responses it sees.
 */
final class ClientTagPolicy extends HttpPipelineSyncPolicy {

    static final String HEADER = "x-hopscope-client";

    private final String clientName;
    private final AtomicLong responses = new AtomicLong();

    ClientTagPolicy(String clientName) {
        this.clientName = clientName;
    }

    @Override
    protected void beforeSendingRequest(HttpPipelineCallContext context) {
        context.getHttpRequest().setHeader(HEADER, clientName);
    }

    @Override
    protected HttpResponse afterReceivedResponse(HttpPipelineCallContext context, HttpResponse response) {
        responses.incrementAndGet();
        return response;
    }

    long responses() {
        return responses.get();
    }
}
