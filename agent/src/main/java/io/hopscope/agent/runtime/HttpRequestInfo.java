package io.hopscope.agent.runtime;

import java.net.URL;

/** The parts of an HTTP request a Request event records: never a header, never a raw query. */
public final class HttpRequestInfo {

    /**
     * The last URLs seen, without their query (so no secret is kept) and without user-info:
     * applications call the same few endpoints over and over with varying queries, and a hit costs
     * a comparison of the URL's start instead of a parse. Entries are immutable; a racing write
     * loses an entry, never mixes two.
     */
    private static final int CACHED_BASES = 16;
    private static final Cached[] CACHE = new Cached[CACHED_BASES];
    private static int nextSlot;
    /** The same bases by the parts of a {@link URL} that make them up (see {@link #of(String, URL, UrlRedactor)}). */
    private static final UrlKey[] URL_KEYS = new UrlKey[CACHED_BASES];
    private static int nextUrlSlot;

    final String method;
    final String name;
    final String url;

    private HttpRequestInfo(String method, String name, String url) {
        this.method = method;
        this.name = name;
        this.url = url;
    }

    /** Builds the name ({@code GET 127.0.0.1/blob}) and the redacted URL from a method and a URL. */
    public static HttpRequestInfo of(String method, String url, UrlRedactor redactor) {
        int query = url.indexOf('?');
        int fragment = url.indexOf('#');
        int baseEnd = baseEnd(query, fragment, url.length());
        Cached cached = cachedBase(url, baseEnd, redactor);
        if (cached == null) {
            return unparsed(method);
        }
        HttpRequestInfo info = cached.infoFor(method);
        return baseEnd == query
                ? withKeptQuery(info, redactor.keptQuery(url, query + 1, fragment > query ? fragment : url.length()))
                : info;
    }

    /**
     * The same from a parsed {@link URL} (azure-core's requests carry one): a URL whose scheme, host,
     * port and path were seen before costs four comparisons, where {@code URL.toString()} would build
     * the whole string again for every request.
     */
    public static HttpRequestInfo of(String method, URL url, UrlRedactor redactor) {
        if (url.getUserInfo() != null) {
            return of(method, url.toString(), redactor);
        }
        UrlKey key = lookup(url);
        if (key == null) {
            String whole = url.toString();
            Cached cached = cachedBase(whole, baseEnd(whole.indexOf('?'), whole.indexOf('#'), whole.length()), redactor);
            if (cached == null) {
                return unparsed(method);
            }
            key = new UrlKey(url, cached);
            int slot = nextUrlSlot;
            URL_KEYS[slot] = key;
            nextUrlSlot = (slot + 1) % CACHED_BASES;
        }
        HttpRequestInfo info = key.cached.infoFor(method);
        String query = url.getQuery();
        return query == null ? info : withKeptQuery(info, redactor.keptQuery(query, 0, query.length()));
    }

    /** The longest path a server request's name keeps: the rest of a longer one is cut (a client may send anything). */
    static final int SERVER_PATH_LIMIT = 256;

    /** A route or an RPC method as an inbound request's name: cut at {@link #SERVER_PATH_LIMIT} (a client may send anything). */
    static String serverName(String route) {
        return route.length() > SERVER_PATH_LIMIT ? route.substring(0, SERVER_PATH_LIMIT) : route;
    }

    /**
     * An inbound request's name ({@code GET /orders/42}) and URL (its path and the allow-listed part
     * of its query: a server knows its own host): {@code path} as the request line gave it, without
     * its query; {@code query} the raw query, or null. A path parameter ({@code ;jsessionid=...}) is
     * cut with everything after it, as a query's other parameters are: it may carry a session.
     */
    public static HttpRequestInfo server(String method, String path, String query, UrlRedactor redactor) {
        if (method == null) {
            method = "?";
        }
        if (path == null || path.isEmpty()) {
            path = "/";
        }
        int parameter = path.indexOf(';');
        int end = Math.min(parameter < 0 ? path.length() : parameter, SERVER_PATH_LIMIT);
        if (end < path.length()) {
            path = path.substring(0, end);
        }
        String kept = query == null || query.isEmpty() ? null : redactor.keptQuery(query, 0, query.length());
        return new HttpRequestInfo(method, method + " " + path, kept == null ? path : path + kept);
    }

    /**
     * Where the part of a URL before its query (or fragment, when that comes first) ends, from the
     * first '?' and '#' (-1: none) and its length.
     */
    private static int baseEnd(int query, int fragment, int length) {
        return query >= 0 && (fragment < 0 || query < fragment) ? query : fragment >= 0 ? fragment : length;
    }

    /** Not a URL we can take apart: keep the method only rather than risk recording a secret. */
    private static HttpRequestInfo unparsed(String method) {
        return new HttpRequestInfo(method, method + " ?", null);
    }

    /** {@code info} with the allow-listed query {@code kept} (null: none kept) after its URL. */
    private static HttpRequestInfo withKeptQuery(HttpRequestInfo info, String kept) {
        return kept == null ? info : new HttpRequestInfo(info.method, info.name, info.url + kept);
    }

    private static UrlKey lookup(URL url) {
        for (UrlKey k : URL_KEYS) {
            if (k != null && k.port == url.getPort() && k.path.equals(url.getPath()) && k.host.equals(url.getHost())
                    && k.protocol.equals(url.getProtocol())) {
                return k;
            }
        }
        return null;
    }

    /** The cached parts of {@code url[0, baseEnd)}, parsed and cached on a miss; null when it is no URL. */
    private static Cached cachedBase(String url, int baseEnd, UrlRedactor redactor) {
        Cached cached = lookup(url, baseEnd);
        if (cached == null) {
            String base = url.substring(0, baseEnd);
            UrlRedactor.Parts parts = redactor.parse(base);
            if (parts == null) {
                return null;
            }
            cached = new Cached(base, parts);
            if (base.indexOf('@') < 0) {
                int slot = nextSlot;
                CACHE[slot] = cached;
                nextSlot = (slot + 1) % CACHED_BASES;
            }
        }
        return cached;
    }

    private static Cached lookup(String url, int baseEnd) {
        for (Cached c : CACHE) {
            if (c != null && c.base.length() == baseEnd && url.startsWith(c.base)) {
                return c;
            }
        }
        return null;
    }

    /** The parts of a user-info-free {@link URL} that make up one cached base. */
    private static final class UrlKey {
        final String protocol;
        final String host;
        final int port;
        final String path;
        final Cached cached;

        UrlKey(URL url, Cached cached) {
            this.protocol = url.getProtocol();
            this.host = url.getHost();
            this.port = url.getPort();
            this.path = url.getPath();
            this.cached = cached;
        }
    }

    /** One URL base's parts and the info of the method it was last called with. */
    private static final class Cached {
        final String base;
        final UrlRedactor.Parts parts;
        volatile HttpRequestInfo last;

        Cached(String base, UrlRedactor.Parts parts) {
            this.base = base;
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
