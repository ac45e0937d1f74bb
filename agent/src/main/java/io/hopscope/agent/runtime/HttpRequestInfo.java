package io.hopscope.agent.runtime;

import java.net.URI;

/** The parts of an HTTP request a Request event records: never a header, never a raw query. */
public final class HttpRequestInfo {

    final String name;
    final String url;

    private HttpRequestInfo(String name, String url) {
        this.name = name;
        this.url = url;
    }

    /** Builds the name (`GET 127.0.0.1/blob`) and the redacted URL from a method and a URL. */
    public static HttpRequestInfo of(String method, String url, UrlRedactor redactor) {
        try {
            URI uri = URI.create(url);
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            String name = method + " " + uri.getHost() + path;
            return new HttpRequestInfo(name, redactor.redact(uri));
        } catch (IllegalArgumentException e) {
            // Not a URI we can take apart: keep the method only rather than risk recording a secret.
            return new HttpRequestInfo(method + " ?", null);
        }
    }
}
