package io.hopscope.analyzer.model;

import java.util.List;

/** Lock contention of one request: JDK monitor-enter and park events on its threads inside its segments. */
public record LockContention(long count, long nanos, List<LockSite> top) {

    public static final LockContention NONE = new LockContention(0, 0, List.of());
}
