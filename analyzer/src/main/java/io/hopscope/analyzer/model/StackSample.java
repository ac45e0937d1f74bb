package io.hopscope.analyzer.model;

import java.util.List;

/**
 * What a flame graph adds up from one JDK event: its stack as {@code type.method} frames from the root
 * ({@code [truncated]} first when JFR cut it), what to draw on top of the leaf frame (the allocated or
 * contended class, or null), its weight (1 a sample, bytes for allocation, nanoseconds for locks and
 * parks) and the name of the thread it happened on (null when JFR did not say; export's thread pool).
 */
public record StackSample(List<String> framesRootFirst, String leaf, long weight, String threadName) {

    /** A sample whose thread is not needed. */
    public StackSample(List<String> framesRootFirst, String leaf, long weight) {
        this(framesRootFirst, leaf, weight, null);
    }
}
