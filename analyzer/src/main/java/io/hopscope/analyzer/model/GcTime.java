package io.hopscope.analyzer.model;

import java.util.List;

/**
 * The GC pauses during a request: {@code nanos} of them overlapped it, and each pause by start while
 * the request keeps its detail (a pause is shared by every request it overlaps).
 */
public record GcTime(long nanos, List<GcPause> pauses) {

    public static final GcTime NONE = new GcTime(0, List.of());
}
