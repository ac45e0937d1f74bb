package io.hopscope.analyzer.model;

/**
 * A pipeline policy, interceptor or nested boundary invocation ({@code hopscope.Span});
 * {@code parentSpanId} 0 means top level.
 */
public record Span(long spanId, long parentSpanId, String kind, String name, String mode, int depth,
                   ThreadRef thread, long startEpochNanos, long endEpochNanos) {

    /** The kind of a request boundary nested in a request: a call it made (an HTTP client's send, say). */
    public static final String BOUNDARY = "boundary";

    public long durationNanos() {
        return endEpochNanos - startEpochNanos;
    }
}
