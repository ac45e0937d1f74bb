package io.hopscope.analyzer.model;

/** A stop-the-world GC pause (jdk.GCPhasePause, or jdk.GarbageCollection when pauses are not recorded). */
public record GcPause(long gcId, String name, long startEpochNanos, long endEpochNanos) {

    public long durationNanos() {
        return endEpochNanos - startEpochNanos;
    }
}
