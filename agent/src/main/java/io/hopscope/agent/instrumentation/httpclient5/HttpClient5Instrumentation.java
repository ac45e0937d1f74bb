package io.hopscope.agent.instrumentation.httpclient5;

import io.hopscope.agent.instrumentation.ApacheClientInstrumentation;
import io.hopscope.agent.instrumentation.SupportedVersions;

/**
 * Apache HttpClient 5, classic (blocking) API: CloseableHttpClient#doExecute(HttpHost,
 * ClassicHttpRequest, HttpContext), HttpClient 5.0 and later, where every execute overload ends up
 * (those with a response handler too), is a request boundary; the connection pool hands over no
 * task, and the body, read by the response handler or the caller after, is not in the request (as
 * with OkHttp's execute). Every rule also matches a copy of HttpClient 5 relocated under another
 * package (see LibraryLoaders).
 */
public final class HttpClient5Instrumentation extends ApacheClientInstrumentation {

    static final String CLIENT = "org.apache.hc.client5.http.impl.classic.CloseableHttpClient";

    public HttpClient5Instrumentation() {
        // HttpClient 5's own package: its core (org.apache.hc.core5) is usually relocated beside it.
        super("httpclient5", CLIENT, "org.apache.hc.client5", "org.apache.hc.client5.http.classic.HttpClient#execute",
                "io.hopscope.agent.instrumentation.httpclient5.HttpClient5Describer",
                "org.apache.hc.core5.http.HttpRequest", "org.apache.hc.core5.http.HttpResponse");
    }

    /** CloseableHttpClient#doExecute(HttpHost, ClassicHttpRequest, HttpContext) is in 5.0, the first release. */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("org.apache.httpcomponents.client5:httpclient5", "5.0", "5.6.5");
    }
}
