package io.hopscope.analyzer.export;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HTTP headers an endpoint needs (Authorization, a tenant id), from {@code OTEL_EXPORTER_OTLP_HEADERS}
 * or a file, never from the command line: a process listing shows arguments to every user. Values are
 * secrets: no message of this class or of {@link Endpoint} quotes one, and {@link #scrub} takes them out
 * of text that comes back from a server.
 */
public final class Headers {

    /** No headers. */
    public static final Headers NONE = new Headers(Map.of());

    private final Map<String, String> values;

    private Headers(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    /**
     * Parses OpenTelemetry's format ({@code key1=value1,key2=value2}, values percent-encoded); newlines
     * separate entries too, so a file may give one a line. {@code source} names where the text came from
     * in errors, which give an entry's position and never its text.
     */
    public static Headers parse(String text, String source) throws HeaderProblem {
        Map<String, String> values = new LinkedHashMap<>();
        int position = 0;
        for (String entry : text.split("[,\\r\\n]")) {
            if (entry.isBlank()) {
                continue;
            }
            position++;
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new HeaderProblem(source + ": header " + position + " is not key=value");
            }
            String key = entry.substring(0, eq).trim();
            if (!key.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new HeaderProblem(source + ": header " + position + " has a name that is not an HTTP token");
            }
            String value;
            try {
                value = URLDecoder.decode(entry.substring(eq + 1).trim().replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new HeaderProblem(source + ": header " + key + " has a bad percent-encoding");
            }
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw new HeaderProblem(source + ": header " + key + " has a line break in its value");
            }
            values.put(key, value);
        }
        return new Headers(values);
    }

    /** The headers of a file (the same format); the file must not be readable by others, as a secret's. */
    public static Headers read(Path file) throws HeaderProblem {
        try {
            return parse(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new HeaderProblem(file + ": cannot read the headers file");
        }
    }

    Map<String, String> values() {
        return values;
    }

    /** The header names, for messages. */
    public String names() {
        return values.isEmpty() ? "none" : String.join(", ", values.keySet());
    }

    /** {@code text} with every header value replaced by {@code ***}. */
    public String scrub(String text) {
        String s = text;
        for (String v : values.values()) {
            if (!v.isEmpty()) {
                s = s.replace(v, "***");
            }
        }
        return s;
    }

    /** A header source that cannot be used: its message names the source and never a value. */
    public static final class HeaderProblem extends Exception {
        public HeaderProblem(String message) {
            super(message);
        }
    }
}
