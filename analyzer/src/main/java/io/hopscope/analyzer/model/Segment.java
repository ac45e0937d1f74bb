package io.hopscope.analyzer.model;

/**
 * A continuous stretch of one thread working on one request ({@code hopscope.Segment}); times are
 * epoch nanoseconds, the JFR clock. {@code kind} is {@code start}, {@code task} or {@code resume}.
 */
public record Segment(ThreadRef thread, String kind, long startEpochNanos, long endEpochNanos,
                      long allocatedBytes, long cpuNanos) {

    public long durationNanos() {
        return endEpochNanos - startEpochNanos;
    }
}
