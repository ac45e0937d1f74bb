package io.hopscope.analyzer.model;

import java.util.List;

/** The result of {@code report}: the recording's facts, one summary per request name, the selected requests. */
public record Report(RecordingInfo recording, List<NameSummary> summary, List<Request> requests) {
}
