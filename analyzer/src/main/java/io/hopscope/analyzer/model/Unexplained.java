package io.hopscope.analyzer.model;

import java.util.List;

/**
 * Where hopscope was blind in one request: the time its threads spent parked, waiting on a monitor or
 * blocked entering one ({@code jdk.ThreadPark}, {@code jdk.JavaMonitorWait}, {@code jdk.JavaMonitorEnter})
 * inside its segments that none of its waits or wake hops explains, over {@code count} such events, and
 * the sites that took most of it. Thread time: threads that were parked at once add up.
 */
public record Unexplained(long nanos, long count, List<UnexplainedSite> top) {

    public static final Unexplained NONE = new Unexplained(0, 0, List.of());

    /** The share of {@code durationNanos} that hopscope explains: 1 less the unexplained time, at most all of it. */
    public double explainedShare(long durationNanos) {
        return durationNanos <= 0 ? 1 : 1 - Math.min(nanos, durationNanos) / (double) durationNanos;
    }
}
