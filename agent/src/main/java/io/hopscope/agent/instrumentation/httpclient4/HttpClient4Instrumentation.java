package io.hopscope.agent.instrumentation.httpclient4;

import io.hopscope.agent.instrumentation.ApacheClientInstrumentation;
import io.hopscope.agent.instrumentation.SupportedVersions;

/**
 * Apache HttpClient 4: CloseableHttpClient#doExecute(HttpHost, HttpRequest, HttpContext), HttpClient
 * 4.3 and later, where every execute overload ends up (those with a ResponseHandler too, and the
 * deprecated DefaultHttpClient's), is a request boundary; the body, read by the response handler or
 * the caller after, is not in it. Every rule also matches a copy of HttpClient 4 relocated under
 * another package (see LibraryLoaders).
 */
public final class HttpClient4Instrumentation extends ApacheClientInstrumentation {

    static final String CLIENT = "org.apache.http.impl.client.CloseableHttpClient";

    public HttpClient4Instrumentation() {
        // HttpClient 4's and its core's package (httpcore 4 is org.apache.http too).
        super("httpclient4", CLIENT, "org.apache.http", "org.apache.http.client.HttpClient#execute",
                "io.hopscope.agent.instrumentation.httpclient4.HttpClient4Describer",
                "org.apache.http.HttpRequest", "org.apache.http.HttpResponse");
    }

    /** CloseableHttpClient, with its doExecute(HttpHost, HttpRequest, HttpContext), came with 4.3. */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("org.apache.httpcomponents:httpclient", "4.3", "4.5.14");
    }
}
