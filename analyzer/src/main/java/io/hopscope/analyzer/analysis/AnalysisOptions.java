package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.RequestWindow;

/**
 * What to select from a recording: {@code nameGlob} null means every name; {@code top} &lt; 0 means
 * every request; {@code detailBytes} is how many bytes the requests' event lists (hops, segments,
 * waits, spans) may hold at once besides their totals, in flight and selected together
 * ({@link DetailBudget}); {@code window} keeps only the requests that started in it, in the summary
 * as in the requests shown.
 */
public record AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes,
                              RequestWindow window) {

    /** Over the whole recording. */
    public AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes) {
        this(nameGlob, top, sort, topSites, detailBytes, RequestWindow.ALL);
    }

    /** Every request, every name, lists within the default budget. */
    public static AnalysisOptions all() {
        return new AnalysisOptions(null, -1, SortField.duration, 5, defaultDetailBytes());
    }

    /** The same, restricted to the requests that started in {@code window}. */
    public AnalysisOptions within(RequestWindow window) {
        return new AnalysisOptions(nameGlob, top, sort, topSites, detailBytes, window);
    }

    /** The default budget for the event lists: a quarter of the heap the JVM may grow to. */
    public static long defaultDetailBytes() {
        return DetailBudget.defaultLimitBytes();
    }
}
