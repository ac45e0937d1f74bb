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
        HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
        HttpResponse<byte[]> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException e) {
            throw new EndpointProblem(uri + ": no connection within " + CONNECT_TIMEOUT.toSeconds() + " s; nothing was sent");
        } catch (HttpTimeoutException e) {
            throw new EndpointProblem(uri + ": no answer within " + REQUEST_TIMEOUT.toSeconds()
                    + " s; the export may or may not have been received");
        } catch (ConnectException e) {
            throw new EndpointProblem(uri + ": cannot connect (connection refused?); nothing was sent");
        } catch (IOException e) {
            Throwable cause = e.getCause() instanceof UnresolvedAddressException ? e.getCause() : e;
            throw new EndpointProblem(uri + ": " + (cause instanceof UnresolvedAddressException ? "unknown host"
                    : headers.scrub(cause.getClass().getSimpleName() + " " + cause.getMessage()))
                    + "; the export may not have been received");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EndpointProblem(uri + ": interrupted while sending; the export may not have been received");
        }
        if (response.statusCode() / 100 != 2) {
            // A collector answers a protobuf Status: its message is the readable part of the bytes.
            String why = new String(response.body(), StandardCharsets.ISO_8859_1)
                    .replaceAll("[^\\x20-\\x7e]+", " ").replaceAll("\\s+", " ").strip();
            if (why.length() > QUOTED_CHARS) {
                why = why.substring(0, QUOTED_CHARS) + "...";
            }
            throw new EndpointProblem(uri + ": refused with HTTP " + response.statusCode()
                    + (why.isEmpty() ? "" : ": " + headers.scrub(why)));
        }
        return response.body();
    }

    /** The endpoint did not take the export; the message is one line without any header value. */
    public static final class EndpointProblem extends Exception {
        public EndpointProblem(String message) {
            super(message);
        }
    }
}
