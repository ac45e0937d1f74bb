package io.hopscope.analyzer.model;

import java.util.List;
import java.util.Map;

/**
 * The eBPF side of a report: the input file and its format ({@code events} or {@code folded}), how
 * many intervals there were and how many fell in requests, per-request views (by request id) and
 * per-name summaries (events only), per thread-name wake pairs (folded only; events give them too),
 * and notes the outputs print (e.g. why folded input has no per-request figures). {@code stackEvery} is
 * offwake's --stack-every: one interval in so many has stacks, which the stack pictures and waker stacks
 * weigh so many times (1: every interval's; 0 for folded input, which cannot say, its totals already
 * weighted). {@code lossWindows}: the file's loss records; {@code incompleteRequests}: the finished
 * requests that overlap them (each view says so).
 */
public record KernelReport(String file, String format, long intervals, long intervalsInRequests, long stackEvery,
                           Map<Long, KernelView> requests, List<KernelSummary> summary, List<WakePair> threadNames,
                           List<String> notes, long lossWindows, long incompleteRequests) {

    public boolean perRequest() {
        return "events".equals(format);
    }

    /** What the stack pictures stand on, for a report's header: empty when every interval has stacks. */
    public String stackSampling() {
        return stackEvery > 1 ? "stacks of 1 interval in " + stackEvery + " (offwake --stack-every " + stackEvery
                + "), each weighted x" + stackEvery + " in flame graphs and waker stacks; times exact" : "";
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
