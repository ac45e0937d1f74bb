package io.hopscope.analyzer.analysis;

/**
 * What to select from a recording: {@code nameGlob} null means every name; {@code top} &lt; 0 means
 * every request; {@code detailLimit} is how many requests in flight at once keep their event lists
 * (hops, segments, waits, spans) besides their totals: a safety net for recordings with huge flush
 * intervals, since finished requests leave memory anyway.
 */
public record AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, int detailLimit) {

    public static final int DEFAULT_DETAIL_LIMIT = 50_000;

    public static AnalysisOptions all() {
        return new AnalysisOptions(null, -1, SortField.duration, 5, DEFAULT_DETAIL_LIMIT);
    }
}
