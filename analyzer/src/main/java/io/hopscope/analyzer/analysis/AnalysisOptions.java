package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.Warmup;

/**
 * What to select from a recording: {@code nameGlob} null means every name; {@code top} &lt; 0 means
 * every request; {@code detailBytes} is how many bytes the requests' event lists (hops, segments,
 * waits, spans) may hold at once besides their totals, in flight and selected together
 * ({@link DetailBudget}); {@code warmup} what to do with warm-up requests.
 */
public record AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes,
                              Warmup warmup) {

    /** Warm-up requests apart ({@link Warmup#apart}): ranked on their own, counted in the figures. */
    public AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes) {
        this(nameGlob, top, sort, topSites, detailBytes, Warmup.apart);
    }

    /** These options with warm-up requests treated as {@code w} says. */
    public AnalysisOptions withWarmup(Warmup w) {
        return new AnalysisOptions(nameGlob, top, sort, topSites, detailBytes, w);
    }

    /** How many warm-up requests the report lists apart, at most. */
    public int warmupShown() {
        return warmup == Warmup.apart && top > 0 ? Math.min(top, WARMUP_SHOWN) : 0;
    }

    private static final int WARMUP_SHOWN = 3;

    /** Every request, every name, lists within the default budget. */
    public static AnalysisOptions all() {
        return new AnalysisOptions(null, -1, SortField.duration, 5, defaultDetailBytes());
    }

    /** The default budget for the event lists: a quarter of the heap the JVM may grow to. */
    public static long defaultDetailBytes() {
        return DetailBudget.defaultLimitBytes();
    }
}
