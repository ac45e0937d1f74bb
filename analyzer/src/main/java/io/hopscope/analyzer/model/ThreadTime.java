package io.hopscope.analyzer.model;

/** What one thread did for one request: time in its segments and the exact bytes it allocated there. */
public record ThreadTime(ThreadRef thread, int segments, long nanos, long allocatedBytes) {
}
