package io.hopscope.testapps.servers;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;

/**
 * Requests a route IT sends after its {@link ServerStudy}, one per case the study does not cover
 * (a path no resource matches, a sub-resource locator's), each with a traceparent of its own
 * ({@link ServerStudy#traceparent}) so that the IT finds its request; prints
 * {@code probe TRACE_ID PATH status CODE}.
 */
public final class RouteProbes {

    /** A path under the application that no resource matches: its request keeps its path. */
    public static final String UNMATCHED = "/missing/42";
    /** A sub-resource locator's path: {@code /orders/{id}/items} and the sub-resource's {@code /{item}}. */
    public static final String LOCATOR = "/orders/7/items/3";
    /** The trace number of each probe's traceparent. */
    public static final int UNMATCHED_TRACE = 501;
    public static final int LOCATOR_TRACE = 502;

    private RouteProbes() {
    }

    /** Sends both probes under {@code base} (the application's URL). */
    public static void send(String base) throws IOException {
        send(base, UNMATCHED, UNMATCHED_TRACE);
        send(base, LOCATOR, LOCATOR_TRACE);
    }

    /** The trace id of probe {@code n}'s traceparent. */
    public static String traceId(int n) {
        return String.format("%032x", n);
    }

    private static void send(String base, String path, int n) throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL(base + path).openConnection();
        c.setRequestProperty("traceparent", ServerStudy.traceparent(n));
        int status = c.getResponseCode();
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            if (in != null) {
                in.readAllBytes();
            }
        }
        System.out.println("probe " + traceId(n) + " " + path + " status " + status);
    }
}
