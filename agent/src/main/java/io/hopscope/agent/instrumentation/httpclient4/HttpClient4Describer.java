package io.hopscope.agent.instrumentation.httpclient4;

import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import org.apache.http.HttpRequest;
import org.apache.http.HttpResponse;
import org.apache.http.StatusLine;
import org.apache.http.client.methods.HttpUriRequest;

/**
 * Names Apache HttpClient 4 requests and reads their responses' status. Defined for each copy of
 * HttpClient 4 by a {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), which
 * reaches it by name only.
 */
public final class HttpClient4Describer implements RequestDescriber {
    @Override
    public HttpRequestInfo describe(Object request, UrlRedactor redactor) {
        if (!(request instanceof HttpRequest)) {
            return null;
        }
        HttpRequest http = (HttpRequest) request;
        // An HttpUriRequest (HttpGet, RequestBuilder's) has its URI, absolute when it was made from
        // one; any other request has only its request line's, a path alone (named by its method only).
        String uri = http instanceof HttpUriRequest ? String.valueOf(((HttpUriRequest) http).getURI())
                : http.getRequestLine().getUri();
        return HttpRequestInfo.of(http.getRequestLine().getMethod(), uri, redactor);
    }

    @Override
    public int statusCode(Object response) {
        if (!(response instanceof HttpResponse)) {
            return -1;
        }
        StatusLine status = ((HttpResponse) response).getStatusLine();
        return status == null ? -1 : status.getStatusCode();
    }
}
