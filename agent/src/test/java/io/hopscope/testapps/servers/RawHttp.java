package io.hopscope.testapps.servers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 responses read off a raw socket, one after another, for the apps that pipeline requests
 * on one connection (no client library pipelines): each read to its end, {@code Content-Length}
 * bytes or chunks up to the last (empty) one and its trailers; a response with neither has no body.
 */
final class RawHttp {

    /** A response's status and body. */
    record Response(int status, String body) {
    }

    private RawHttp() {
    }

    static Response read(InputStream in) throws IOException {
        String statusLine = line(in);
        String[] parts = statusLine.split(" ");
        if (!statusLine.startsWith("HTTP/1.1 ") || parts.length < 2) {
            throw new IOException("not a response: " + statusLine);
        }
        long length = 0;
        boolean chunked = false;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring("content-length:".length()).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            for (long size; (size = Long.parseLong(line(in).split(";")[0].trim(), 16)) > 0; ) {
                body.write(bytes(in, size));
                line(in);
            }
            while (!line(in).isEmpty()) {
                // Trailers, up to the empty line that ends the response.
            }
        } else {
            body.write(bytes(in, length));
        }
        return new Response(Integer.parseInt(parts[1]), body.toString(StandardCharsets.UTF_8));
    }

    private static byte[] bytes(InputStream in, long n) throws IOException {
        byte[] bytes = in.readNBytes((int) n);
        if (bytes.length < n) {
            throw new IOException("response body cut short");
        }
        return bytes;
    }

    /** A line of a response's head, without its CRLF. */
    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed in a response's head: " + line);
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }
}
