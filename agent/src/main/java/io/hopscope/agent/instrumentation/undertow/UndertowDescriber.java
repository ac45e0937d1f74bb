package io.hopscope.agent.instrumentation.undertow;

import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.ServerDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import io.undertow.server.DefaultResponseListener;
import io.undertow.server.HttpServerExchange;

/**
 * Names Undertow's exchanges, reads their status, the exception a handler threw, which Undertow
 * answers for itself (500) and keeps as the exchange's {@code DefaultResponseListener.EXCEPTION},
 * and whether the client went away before the response was complete. Defined for each copy of Undertow by a
 * {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), which reaches it by name only.
 */
public final class UndertowDescriber implements ServerDescriber {

    @Override
    public boolean describes(Object exchange) {
        return exchange instanceof HttpServerExchange;
    }

    @Override
    public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
        if (!(exchange instanceof HttpServerExchange)) {
            return null;
        }
        HttpServerExchange http = (HttpServerExchange) exchange;
        return HttpRequestInfo.server(http.getRequestMethod().toString(), path(http), http.getQueryString(), redactor);
    }

    /**
     * The path as the request line gave it, undecoded and without its query: getRequestURI, less
     * the scheme and host of an absolute-form request line ({@code GET http://host/path}).
     */
    private static String path(HttpServerExchange http) {
        String uri = http.getRequestURI();
        if (uri == null || !http.isHostIncludedInRequestURI()) {
            return uri;
        }
        int authority = uri.indexOf("://");
        int path = authority < 0 ? -1 : uri.indexOf('/', authority + 3);
        return path < 0 ? "/" : uri.substring(path);
    }

    @Override
    public String traceparent(Object exchange) {
        return exchange instanceof HttpServerExchange
                ? ((HttpServerExchange) exchange).getRequestHeaders().getFirst("traceparent") : null;
    }

    @Override
    public int statusCode(Object exchange) {
        return exchange instanceof HttpServerExchange ? ((HttpServerExchange) exchange).getStatusCode() : -1;
    }

    /**
     * Undertow completes an exchange whose connection closes under it (a write that found the client
     * gone closes the connection, whose close listener ends the exchange) before the failed write's
     * exception reaches the handler; on every other path the connection is still open when the
     * exchange completes (a response that closes the connection does so after its completion listeners).
     */
    @Override
    public boolean connectionLost(Object exchange) {
        return exchange instanceof HttpServerExchange && !((HttpServerExchange) exchange).getConnection().isOpen();
    }

    @Override
    public Throwable failure(Object exchange) {
        return exchange instanceof HttpServerExchange
                ? ((HttpServerExchange) exchange).getAttachment(DefaultResponseListener.EXCEPTION) : null;
    }
}
