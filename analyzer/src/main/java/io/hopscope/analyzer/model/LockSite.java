package io.hopscope.analyzer.model;

/**
 * Contention on one monitor or park class inside a request: {@code kind} is {@code monitor}
 * (jdk.JavaMonitorEnter) or {@code park} (jdk.ThreadPark); {@code stack} is the top frames of the
 * longest event, one frame a line.
 */
public record LockSite(String kind, String className, long count, long nanos, String stack) {
}
