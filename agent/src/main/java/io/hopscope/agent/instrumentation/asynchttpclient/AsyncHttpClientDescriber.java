package io.hopscope.agent.instrumentation.asynchttpclient;

import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import org.asynchttpclient.Request;
import org.asynchttpclient.Response;

/**
 * Names AsyncHttpClient requests and reads their responses' status. Defined for each copy of
 * AsyncHttpClient by a {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it),
 * which reaches it by name only.
 */
public final class AsyncHttpClientDescriber implements RequestDescriber {
    @Override
    public HttpRequestInfo describe(Object request, UrlRedactor redactor) {
        if (!(request instanceof Request)) {
            return null;
        }
        Request http = (Request) request;
        return HttpRequestInfo.of(http.getMethod(), http.getUrl(), redactor);
    }

    @Override
    public int statusCode(Object response) {
        return response instanceof Response ? ((Response) response).getStatusCode() : -1;
    }
}
