package io.hopscope.agent.instrumentation.reactornetty;

import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.ServerDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Names reactor-netty's server exchanges (its {@code HttpServerOperations}, one per request, both
 * the request and the response, through the public interfaces it implements) and reads their
 * status. Defined for each copy of reactor-netty by a
 * {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), which reaches it by name only.
 */
public final class ReactorNettyServerDescriber implements ServerDescriber {

    @Override
    public boolean describes(Object exchange) {
        return exchange instanceof HttpServerRequest && exchange instanceof HttpServerResponse;
    }

    @Override
    public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
        if (!describes(exchange)) {
            return null;
        }
        HttpServerRequest request = (HttpServerRequest) exchange;
        String uri = request.uri();
        // The request target as sent: a path (origin form), or an absolute URI through a proxy.
        int start = 0;
        int scheme = uri.indexOf("://");
        if (scheme > 0 && !uri.startsWith("/")) {
            int path = uri.indexOf('/', scheme + 3);
            int query = uri.indexOf('?', scheme + 3);
            start = path < 0 || query >= 0 && query < path ? -1 : path;
            if (start < 0) {
                uri = "/" + (query < 0 ? "" : uri.substring(query));
                start = 0;
            }
        }
        int query = uri.indexOf('?', start);
        int fragment = uri.indexOf('#', start);
        int end = query >= 0 ? query : fragment >= 0 ? fragment : uri.length();
        String queryString = query < 0 ? null : uri.substring(query + 1, fragment > query ? fragment : uri.length());
        return HttpRequestInfo.server(request.method().name(), uri.substring(start, end), queryString, redactor);
    }

    @Override
    public String traceparent(Object exchange) {
        return exchange instanceof HttpServerRequest
                ? ((HttpServerRequest) exchange).requestHeaders().get("traceparent") : null;
    }

    @Override
    public int statusCode(Object response) {
        return describes(response) ? ((HttpServerResponse) response).status().code() : -1;
    }
}
