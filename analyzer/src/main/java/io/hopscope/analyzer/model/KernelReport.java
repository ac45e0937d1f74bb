package io.hopscope.analyzer.model;

import java.util.List;
import java.util.Map;

/**
 * The eBPF side of a report: the input file and its format ({@code events} or {@code folded}), how
 * many intervals there were and how many fell in requests, per-request views (by request id) and
 * per-name summaries (events only), per thread-name wake pairs (folded only; events give them too),
 * and notes the outputs print (e.g. why folded input has no per-request figures). {@code lossWindows}: the
 * file's loss records; {@code incompleteRequests}: the finished requests that overlap them (each view says so).
 */
public record KernelReport(String file, String format, long intervals, long intervalsInRequests,
                           Map<Long, KernelView> requests, List<KernelSummary> summary, List<WakePair> threadNames,
                           List<String> notes, long lossWindows, long incompleteRequests) {

    public boolean perRequest() {
        return "events".equals(format);
    }

    /** The request's view; an empty one when the kernel saw nothing of it (or the input has no timestamps). */
    public KernelView request(long requestId) {
        KernelView v = requests.get(requestId);
        return v != null ? v : KernelView.empty(requestId);
    }

    public KernelSummary summary(String name) {
        for (KernelSummary s : summary) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }
}
