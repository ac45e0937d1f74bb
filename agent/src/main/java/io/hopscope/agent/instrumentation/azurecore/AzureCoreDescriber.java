package io.hopscope.agent.instrumentation.azurecore;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestDescriber;
import io.hopscope.agent.runtime.UrlRedactor;

/**
 * Names azure-core requests and reads their responses' status. Defined for each copy of azure-core
 * by a {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), which reaches it by name only.
 */
public final class AzureCoreDescriber implements RequestDescriber {
    @Override
    public HttpRequestInfo describe(Object request, UrlRedactor redactor) {
        HttpRequest http = request instanceof HttpPipelineCallContext
                ? ((HttpPipelineCallContext) request).getHttpRequest()
                : request instanceof HttpRequest ? (HttpRequest) request : null;
        if (http == null) {
            return null;
        }
        java.net.URL url = http.getUrl();
        String method = String.valueOf(http.getHttpMethod());
        return url == null ? HttpRequestInfo.of(method, "null", redactor) : HttpRequestInfo.of(method, url, redactor);
    }

    @Override
    public int statusCode(Object response) {
        return response instanceof HttpResponse ? ((HttpResponse) response).getStatusCode() : -1;
    }
}
