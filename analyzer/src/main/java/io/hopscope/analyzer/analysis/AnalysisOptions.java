package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.model.RequestsKept;

/**
 * What to select from a recording: {@code nameGlob} null means every name; {@code top} &lt; 0 means
 * every request; {@code detailBytes} is how many bytes the requests' event lists (hops, segments,
 * waits, spans) may hold at once besides their totals, in flight and selected together
 * ({@link DetailBudget}); {@code window} keeps only the requests that started in it, in the summary
 * as in the requests shown; {@code sample}, with {@code top} &gt; 0, keeps up to that many more of
 * the rest, every k-th by request id ({@link RequestsKept}).
 */
public record AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes,
                              RequestWindow window, int sample) {

    /** The worst requests kept by default where every request could be many (JSON, trace). */
    public static final int DEFAULT_WORST = 100;
    /** The sample of the rest kept with them by default. */
    public static final int DEFAULT_SAMPLE = 400;

    /** Over the whole recording, no sample. */
    public AnalysisOptions(String nameGlob, int top, SortField sort, int topSites, long detailBytes) {
        this(nameGlob, top, sort, topSites, detailBytes, RequestWindow.ALL, 0);
    }

    /** Every request, every name, lists within the default budget. */
    public static AnalysisOptions all() {
        return new AnalysisOptions(null, -1, SortField.duration, 5, defaultDetailBytes());
    }

    /** The same, restricted to the requests that started in {@code window}. */
    public AnalysisOptions within(RequestWindow window) {
        return new AnalysisOptions(nameGlob, top, sort, topSites, detailBytes, window, sample);
    }

    /** The same, with up to {@code sample} more of the rest besides the worst {@code top}. */
    public AnalysisOptions sampling(int sample) {
        return new AnalysisOptions(nameGlob, top, sort, topSites, detailBytes, window, sample);
    }

    /** The default budget for the event lists: a quarter of the heap the JVM may grow to. */
    public static long defaultDetailBytes() {
        return DetailBudget.defaultLimitBytes();
    }
}
