package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.StackSample;

/**
 * Receives JDK events joined to the request whose segment ran on the event's thread at the event's
 * start: the extension point for outputs that need the events themselves (flame graphs of execution
 * samples inside one request name, and the like). The event is read into a {@link StackSample}
 * (so that no JFR type leaves the reading side); for an event outside every request
 * {@code requestId} is 0 and {@code sample} and {@code requestName} are null.
 */
@FunctionalInterface
public interface SegmentJoin {

    void accept(StackSample sample, long requestId, String requestName);

    /**
     * The same with the request's kind ({@code server}, {@code client}, {@code internal}; null when not
     * recorded) and the W3C trace context it was made in ({@code traceId} and {@code spanId}, null when
     * none): what a join that labels its samples with them overrides (export's).
     */
    default void accept(StackSample sample, long requestId, String requestName, String requestKind, String traceId,
                        String spanId) {
        accept(sample, requestId, requestName);
    }
}
