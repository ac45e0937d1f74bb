package io.hopscope.agent.instrumentation.httpclient5;

import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import java.net.URISyntaxException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;

/**
 * Names Apache HttpClient 5 classic requests and reads their responses' status. Defined for each
 * copy of HttpClient 5 by a {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for
 * it), which reaches it by name only.
 */
public final class HttpClient5Describer implements RequestDescriber {
    @Override
    public HttpRequestInfo describe(Object request, UrlRedactor redactor) {
        if (!(request instanceof HttpRequest)) {
            return null;
        }
        HttpRequest http = (HttpRequest) request;
        String uri;
        try {
            // Absolute when the request was made from a URI; a path alone (a request sent to an
            // explicit HttpHost) is no URL, and the request is named by its method only.
            uri = http.getUri().toString();
        } catch (URISyntaxException e) {
            uri = "?";
        }
        return HttpRequestInfo.of(http.getMethod(), uri, redactor);
    }

    @Override
    public int statusCode(Object response) {
        return response instanceof HttpResponse ? ((HttpResponse) response).getCode() : -1;
    }
}
