package io.hopscope.agent.runtime;

import java.util.Set;

/**
 * Takes a URL apart without {@link java.net.URI} (whose parser costs a few microseconds and a
 * kilobyte per request on the request's own thread) and puts back only what may be recorded: the
 * scheme, host, port and path, and of the query only the allow-listed parameters (option
 * {@code redact=}). User-info, fragment and every other query parameter are dropped: SAS tokens and
 * credentials must never reach a recording.
 */
public final class UrlRedactor {

    /**
     * An array, not the Set it is given as: every request with a query scans it once per parameter,
     * and a Set's iterator was a measurable part of describing a request on the pipeline sample.
     */
    private final String[] allowedParameters;

    public UrlRedactor(Set<String> allowedParameters) {
        this.allowedParameters = Set.copyOf(allowedParameters).toArray(new String[0]);
    }

    /** The parts of one URL a request records; null fields when the URL cannot be taken apart. */
    static final class Parts {
        /** {@code host/path}, what a request's name shows after the method. */
        final String hostAndPath;
        /** The redacted URL. */
        final String url;

        Parts(String hostAndPath, String url) {
            this.hostAndPath = hostAndPath;
            this.url = url;
        }
    }

    /** The URL as a recording may show it, or null when it cannot be taken apart. */
    public String redact(String url) {
        Parts parts = parse(url);
        return parts == null ? null : parts.url;
    }

    /** The recordable parts of an absolute URL ({@code scheme://authority/path?query#fragment}), or null. */
    Parts parse(String url) {
        int schemeEnd = url.indexOf("://");
        if (schemeEnd <= 0 || !isScheme(url, schemeEnd)) {
            return null;
        }
        int authorityStart = schemeEnd + 3;
        int authorityEnd = indexOfAny(url, authorityStart, "/?#");
        // User-info ends at the authority's last '@'; it is never kept.
        int at = url.lastIndexOf('@', authorityEnd - 1);
        int hostStart = at >= authorityStart ? at + 1 : authorityStart;
        if (hostStart == authorityEnd) {
            return null;
        }
        int portColon = url.lastIndexOf(':', authorityEnd - 1);
        int bracket = url.lastIndexOf(']', authorityEnd - 1);
        int hostEnd = portColon > hostStart && portColon > bracket ? portColon : authorityEnd;
        int pathEnd = indexOfAny(url, authorityEnd, "?#");
        int queryEnd = url.indexOf('#', pathEnd);
        if (queryEnd < 0) {
            queryEnd = url.length();
        }
        String host = url.substring(hostStart, hostEnd);
        String path = pathEnd > authorityEnd ? url.substring(authorityEnd, pathEnd) : "";
        StringBuilder out = new StringBuilder(url.length());
        out.append(url, 0, authorityStart).append(url, hostStart, authorityEnd).append(path);
        if (pathEnd < queryEnd && url.charAt(pathEnd) == '?') {
            String kept = keptQuery(url, pathEnd + 1, queryEnd);
            if (kept != null) {
                out.append(kept);
            }
        }
        return new Parts(host + (path.isEmpty() ? "/" : path), out.toString());
    }

    /**
     * The allow-listed parameters of the query {@code url[from, to)}, in their order, as
     * {@code ?a=1&b=2}; null when none is kept.
     */
    String keptQuery(String url, int from, int to) {
        if (allowedParameters.length == 0) {
            return null;
        }
        StringBuilder kept = null;
        for (int start = from; start < to; ) {
            int end = url.indexOf('&', start);
            if (end < 0 || end > to) {
                end = to;
            }
            int eq = url.indexOf('=', start);
            int keyEnd = eq >= 0 && eq < end ? eq : end;
            if (keyEnd > start && isAllowed(url, start, keyEnd)) {
                if (kept == null) {
                    kept = new StringBuilder().append('?');
                } else {
                    kept.append('&');
                }
                kept.append(url, start, end);
            }
            start = end + 1;
        }
        return kept == null ? null : kept.toString();
    }

    /** Whether {@code url[start, end)} is an allowed parameter name, without a substring per test. */
    private boolean isAllowed(String url, int start, int end) {
        for (String allowed : allowedParameters) {
            if (allowed.length() == end - start && url.startsWith(allowed, start)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isScheme(String url, int end) {
        for (int i = 0; i < end; i++) {
            char c = url.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
                    || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.');
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static int indexOfAny(String s, int from, String chars) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return s.length();
    }
}
