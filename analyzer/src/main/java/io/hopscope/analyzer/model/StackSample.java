package io.hopscope.analyzer.model;

import java.util.List;

/**
 * What a flame graph adds up from one JDK event: its stack as {@code type.method} frames from the root
 * ({@code [truncated]} first when JFR cut it), what to draw on top of the leaf frame (the allocated or
 * contended class, or null) and its weight (1 a sample, bytes for allocation, nanoseconds for locks).
 */
public record StackSample(List<String> framesRootFirst, String leaf, long weight) {
}
