package io.hopscope.analyzer.model;

import java.util.List;

/**
 * A request's blocking waits (hopscope.Wait): {@code blockedNanos} in all, whether any of them blocked
 * a non-blocking thread (an event loop's, say), and each wait by start while the request keeps its detail.
 */
public record Waits(long blockedNanos, boolean onNonBlockingThread, List<Wait> list) {

    public static final Waits NONE = new Waits(0, false, List.of());
}
