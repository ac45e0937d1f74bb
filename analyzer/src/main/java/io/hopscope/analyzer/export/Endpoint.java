package io.hopscope.analyzer.export;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One HTTP POST of a whole export to a backend: it is accepted (2xx) or the export fails with one line
 * saying what the endpoint answered, so nothing is half-sent without a word. Header values never appear
 * in a message (see {@link Headers#scrub}).
 */
public final class Endpoint {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    // What of a refusal's body a message quotes: enough for a collector's reason, not a page.
    private static final int QUOTED_CHARS = 200;

    // One client for every POST of this JVM: live posts once a second for days, and each client has a
    // selector thread of its own until it is collected.
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();

    private Endpoint() {
    }

    /** Posts {@code body}; returns the response body of a 2xx answer, else throws with one line. */
    public static byte[] post(URI uri, byte[] body, String contentType, String contentEncoding, Headers headers)
            throws EndpointProblem {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentEncoding != null) {
            request.header("Content-Encoding", contentEncoding);
        }
        try {
            headers.values().forEach(request::header);
        } catch (IllegalArgumentException e) {
            // The JDK refuses some names (Host, Content-Length...); its message quotes only the name.
            throw new EndpointProblem(uri + ": a header cannot be sent: " + headers.scrub(String.valueOf(e.getMessage())));
        }
        HttpResponse<byte[]> response;
        try {
            response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException e) {
            throw EndpointProblem.retryable(uri + ": no connection within " + CONNECT_TIMEOUT.toSeconds()
                    + " s; nothing was sent", -1);
        } catch (HttpTimeoutException e) {
            throw EndpointProblem.retryable(uri + ": no answer within " + REQUEST_TIMEOUT.toSeconds()
                    + " s; the export may or may not have been received", -1);
        } catch (ConnectException e) {
            throw EndpointProblem.retryable(uri + ": cannot connect (connection refused?); nothing was sent", -1);
        } catch (IOException e) {
            Throwable cause = e.getCause() instanceof UnresolvedAddressException ? e.getCause() : e;
            // An unknown host too: a Collector's service name resolves again once it is back.
            throw EndpointProblem.retryable(uri + ": " + (cause instanceof UnresolvedAddressException ? "unknown host"
                    : headers.scrub(cause.getClass().getSimpleName() + " " + cause.getMessage()))
                    + "; the export may not have been received", -1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw EndpointProblem.retryable(uri + ": interrupted while sending; the export may not have been received", -1);
        }
        int status = response.statusCode();
        if (status / 100 != 2) {
            // A collector answers a protobuf Status: its message is the readable part of the bytes.
            String why = new String(response.body(), StandardCharsets.ISO_8859_1)
                    .replaceAll("[^\\x20-\\x7e]+", " ").replaceAll("\\s+", " ").strip();
            if (why.length() > QUOTED_CHARS) {
                why = why.substring(0, QUOTED_CHARS) + "...";
            }
            String message = uri + ": refused with HTTP " + status + (why.isEmpty() ? "" : ": " + headers.scrub(why));
            // OTLP's retryable answers (429, 502-504), and any 5xx or a 408: the endpoint is there but not
            // taking data now. Any other 4xx will be refused again: credentials, a wrong path, a bad request.
            if (status == 408 || status == 429 || status / 100 == 5) {
                throw EndpointProblem.retryable(message, retryAfterSeconds(response));
            }
            throw new EndpointProblem(message);
        }
        return response.body();
    }

    // Retry-After in seconds (the HTTP-date form is not worth parsing for a Collector); -1 when absent.
    private static long retryAfterSeconds(HttpResponse<?> response) {
        try {
            return response.headers().firstValue("Retry-After").map(v -> Long.parseLong(v.strip())).orElse(-1L);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The endpoint did not take the export; the message is one line without any header value. A retryable
     * problem is the endpoint not there or not taking data now (no connection, no answer, a 5xx, 429 or
     * 408); any other is a refusal that will be repeated (a 4xx: credentials, a wrong path).
     */
    public static final class EndpointProblem extends Exception {
        private final boolean retryable;
        private final long retryAfterSeconds;

        public EndpointProblem(String message) {
            this(message, false, -1);
        }

        private EndpointProblem(String message, boolean retryable, long retryAfterSeconds) {
            super(message);
            this.retryable = retryable;
            this.retryAfterSeconds = retryAfterSeconds;
        }

        static EndpointProblem retryable(String message, long retryAfterSeconds) {
            return new EndpointProblem(message, true, retryAfterSeconds);
        }

        public boolean retryable() {
            return retryable;
        }

        /** What the endpoint asked for with Retry-After, or -1. */
        public long retryAfterSeconds() {
            return retryAfterSeconds;
        }
    }
}
