package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.memory.DetailBudget;
import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.model.RequestsKept;
import io.hopscope.analyzer.model.Warmup;

/**
 * What to select from a recording: {@code nameGlob} null means every name; {@code top} &lt; 0 means
 * every request; {@code detailBytes} is how many bytes the requests' event lists (hops, segments,
 * waits, spans) may hold at once besides their totals, in flight and selected together
 * ({@link DetailBudget}); {@code window} keeps only the requests that started in it, in the summary
 * as in the requests shown; {@code sample}, with {@code top} &gt; 0, keeps up to that many more of
 * the rest, every k-th by request id ({@link RequestsKept}); {@code warmup} what to do with warm-up
 * requests; {@code traceId}, when not null, keeps only the requests made in that W3C trace.
 */
public record AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes,
                              RequestWindow window, int sample, Warmup warmup, String traceId) {

    /** The worst requests kept by default where every request could be many (JSON, trace). */
    public static final int DEFAULT_WORST = 100;
    /** The sample of the rest kept with them by default. */
    public static final int DEFAULT_SAMPLE = 400;

    /** Over the whole recording, no sample, warm-up requests ranked with the others ({@link Warmup#include}). */
    public AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes) {
        this(nameGlob, top, sort, topSites, detailBytes, RequestWindow.ALL, 0, Warmup.include);
    }

    /**
     * Warm-up requests ranked with the others ({@link Warmup#include}), each marked: outputs that keep
     * requests for a program to read (JSON, trace) hold them in one list; a worst list for a person
     * asks for {@link Warmup#apart} ({@link #withWarmup}).
     */
    public AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes,
                           RequestWindow window, int sample) {
        this(nameGlob, top, sort, topSites, detailBytes, window, sample, Warmup.include);
    }

    /** Every trace. */
    public AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes,
                           RequestWindow window, int sample, Warmup warmup) {
        this(nameGlob, top, sort, topSites, detailBytes, window, sample, warmup, null);
    }

    /** These options with warm-up requests treated as {@code w} says. */
    public AnalysisOptions withWarmup(Warmup w) {
        return new AnalysisOptions(nameGlob, top, sort, topSites, detailBytes, window, sample, w, traceId);
    }

    /** The same, only the requests made in the W3C trace {@code id} (null: every request). */
    public AnalysisOptions inTrace(String id) {
        return new AnalysisOptions(nameGlob, top, sort, topSites, detailBytes, window, sample, warmup, id);
    }

    /** How many warm-up requests the report lists apart, at most. */
    public int warmupShown() {
        return warmup == Warmup.apart && top > 0 ? Math.min(top, Warmup.SHOWN) : 0;
    }

    /** Every request, every name, lists within the default budget. */
    public static AnalysisOptions all() {
        return new AnalysisOptions(null, -1, SortField.duration, 5, defaultDetailBytes());
    }

    /** The same, restricted to the requests that started in {@code window}. */
    public AnalysisOptions within(RequestWindow window) {
        return new AnalysisOptions(nameGlob, top, sort, topSites, detailBytes, window, sample, warmup, traceId);
    }

    /** The same, with up to {@code sample} more of the rest besides the worst {@code top}. */
    public AnalysisOptions sampling(int sample) {
        return new AnalysisOptions(nameGlob, top, sort, topSites, detailBytes, window, sample, warmup, traceId);
    }

    /** The default budget for the event lists: a quarter of the heap the JVM may grow to. */
    public static long defaultDetailBytes() {
        return DetailBudget.defaultLimitBytes();
    }
}
