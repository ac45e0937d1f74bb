package io.hopscope.analyzer.model;

/** Time in one span name (policy, interceptor or boundary) of one request: self time excludes child spans. */
public record PolicyTime(String name, String kind, long count, long totalNanos, long selfNanos) {
}
