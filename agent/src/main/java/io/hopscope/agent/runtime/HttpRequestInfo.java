package io.hopscope.agent.runtime;

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
        int query = url.indexOf('?');
        int fragment = url.indexOf('#');
        int baseEnd = query >= 0 && (fragment < 0 || query < fragment) ? query : fragment >= 0 ? fragment : url.length();
        Cached cached = lookup(url, baseEnd);
        if (cached == null) {
            String base = url.substring(0, baseEnd);
            UrlRedactor.Parts parts = redactor.parse(base);
            if (parts == null) {
                // Not a URL we can take apart: keep the method only rather than risk recording a secret.
                return new HttpRequestInfo(method, method + " ?", null);
            }
            cached = new Cached(base, parts);
            if (base.indexOf('@') < 0) {
                int slot = nextSlot;
                CACHE[slot] = cached;
                nextSlot = (slot + 1) % CACHED_BASES;
            }
        }
        HttpRequestInfo info = cached.infoFor(method);
        if (baseEnd == query) {
            String kept = redactor.keptQuery(url, query + 1, fragment > query ? fragment : url.length());
            if (kept != null) {
                return new HttpRequestInfo(method, info.name, info.url + kept);
            }
        }
        return info;
    }

    private static Cached lookup(String url, int baseEnd) {
        for (Cached c : CACHE) {
            if (c != null && c.base.length() == baseEnd && url.startsWith(c.base)) {
                return c;
            }
        }
        return null;
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
