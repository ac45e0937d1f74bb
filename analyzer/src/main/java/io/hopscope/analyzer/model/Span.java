package io.hopscope.analyzer.model;

/**
 * A pipeline policy, interceptor or nested boundary invocation ({@code hopscope.Span});
 * {@code parentSpanId} 0 means top level.
 */
public record Span(long spanId, long parentSpanId, String kind, String name, String mode, int depth,
                   ThreadRef thread, long startEpochNanos, long endEpochNanos) {

    public long durationNanos() {
        return endEpochNanos - startEpochNanos;
    }
}
