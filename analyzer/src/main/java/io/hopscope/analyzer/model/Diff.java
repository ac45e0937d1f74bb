package io.hopscope.analyzer.model;

import java.util.List;

/**
 * The result of {@code diff}: per request name present in both recordings, then process-level rows
 * (name {@code *process*}), plus the names found in only one of them, and the window of request
 * starts each recording was read in.
 */
public record Diff(RecordingInfo a, RecordingInfo b, List<DiffRow> rows, List<String> onlyInA, List<String> onlyInB,
                   RequestWindow windowA, RequestWindow windowB) {

    /** Of the whole recordings. */
    public Diff(RecordingInfo a, RecordingInfo b, List<DiffRow> rows, List<String> onlyInA, List<String> onlyInB) {
        this(a, b, rows, onlyInA, onlyInB, RequestWindow.ALL, RequestWindow.ALL);
    }
}
