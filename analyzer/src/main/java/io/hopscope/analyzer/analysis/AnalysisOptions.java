package io.hopscope.analyzer.analysis;

/**
 * What to select from a recording: {@code nameGlob} null means every name; {@code top} &lt; 0 means
 * every request; {@code detailBytes} is how many bytes the requests' event lists (hops, segments,
 * waits, spans) may hold at once besides their totals, in flight and selected together
 * ({@link DetailBudget}).
 */
public record AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes) {

    /** Every request, every name, lists within the default budget. */
    public static AnalysisOptions all() {
        return new AnalysisOptions(null, -1, SortField.duration, 5, defaultDetailBytes());
    }

    /** The default budget for the event lists: a quarter of the heap the JVM may grow to. */
    public static long defaultDetailBytes() {
        return DetailBudget.defaultLimitBytes();
    }
}
