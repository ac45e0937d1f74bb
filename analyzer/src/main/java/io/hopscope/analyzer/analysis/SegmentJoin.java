package io.hopscope.analyzer.analysis;

import jdk.jfr.consumer.RecordedEvent;

/**
 * Receives JDK events joined to the request whose segment ran on the event's thread at the event's
 * start: the extension point for outputs that need the events themselves (flame graphs of execution
 * samples inside one request name, and the like). {@code requestId} is 0 and {@code requestName}
 * null for an event outside every request. The event object is reused after the call returns.
 */
@FunctionalInterface
public interface SegmentJoin {

    void accept(RecordedEvent event, long requestId, String requestName);
}
