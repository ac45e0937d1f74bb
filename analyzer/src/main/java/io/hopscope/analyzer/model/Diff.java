package io.hopscope.analyzer.model;

import java.util.List;

/**
 * The result of {@code diff}: per request name present in both recordings, then process-level rows
 * (name {@code *process*}), plus the names found in only one of them.
 */
public record Diff(RecordingInfo a, RecordingInfo b, List<DiffRow> rows, List<String> onlyInA, List<String> onlyInB) {
}
