package io.hopscope.agent.runtime;

import java.util.concurrent.ConcurrentHashMap;

/** The parts of an HTTP request a Request event records: never a header, never a raw query. */
public final class HttpRequestInfo {

    /**
     * Parsed URLs without query or user-info (so nothing secret is kept), by URL: applications
     * call the same few endpoints over and over, and a hit costs a map lookup instead of a parse.
     * Bounded: once full, further URLs are parsed each time.
     */
    private static final int MAX_CACHED_URLS = 1024;
    private static final ConcurrentHashMap<String, Cached> CACHE = new ConcurrentHashMap<>();

    private final String method;
    final String name;
    final String url;

    private HttpRequestInfo(String method, String name, String url) {
        this.method = method;
        this.name = name;
        this.url = url;
    }

    /** Builds the name ({@code GET 127.0.0.1/blob}) and the redacted URL from a method and a URL. */
    public static HttpRequestInfo of(String method, String url, UrlRedactor redactor) {
        Cached cached = CACHE.get(url);
        if (cached != null) {
            return cached.infoFor(method);
        }
        UrlRedactor.Parts parts = redactor.parse(url);
        if (parts == null) {
            // Not a URL we can take apart: keep the method only rather than risk recording a secret.
            return new HttpRequestInfo(method, method + " ?", null);
        }
        Cached fresh = new Cached(parts);
        if (CACHE.size() < MAX_CACHED_URLS && url.indexOf('?') < 0 && url.indexOf('@') < 0) {
            CACHE.putIfAbsent(url, fresh);
        }
        return fresh.infoFor(method);
    }

    /** One URL's parts and the info of the method it was last called with. */
    private static final class Cached {
        final UrlRedactor.Parts parts;
        volatile HttpRequestInfo last;

        Cached(UrlRedactor.Parts parts) {
            this.parts = parts;
        }

        HttpRequestInfo infoFor(String method) {
            HttpRequestInfo info = last;
            if (info != null && info.method.equals(method)) {
                return info;
            }
            info = new HttpRequestInfo(method, method + " " + parts.hostAndPath, parts.url);
            last = info;
            return info;
        }
    }
}
