package io.hopscope.samples.pipeline;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;

/**
 * A custom synchronous policy: {@code HttpPipelineSyncPolicy} is azure-core's base class for policies
 * whose work runs inline on both the sync and the async path. It tags each request with the HTTP
 * client under test.
 */
final class ClientTagPolicy extends HttpPipelineSyncPolicy {

    static final HttpHeaderName HEADER = HttpHeaderName.fromString("x-hopscope-client");

    private final String clientName;

    ClientTagPolicy(String clientName) {
        this.clientName = clientName;
    }

    @Override
    protected void beforeSendingRequest(HttpPipelineCallContext context) {
        context.getHttpRequest().setHeader(HEADER, clientName);
    }
}
