package io.hopscope.analyzer.model;

import java.util.List;

/**
 * The result of {@code report}: the recording's facts, one summary per request name, the selected
 * requests in report order (the worst first, then the sample, as {@code kept} says), and the window
 * of request starts they were taken from. {@code requests} may be a read-only view that builds each
 * record when it is read: iterate it, do not keep it around.
 */
public record Report(RecordingInfo recording, List<NameSummary> summary, List<Request> requests,
                     RequestWindow window, RequestsKept kept) {

    /** A report of the whole recording. */
    public Report(RecordingInfo recording, List<NameSummary> summary, List<Request> requests) {
        this(recording, summary, requests, RequestWindow.ALL, RequestsKept.NOT_STATED);
    }
}
