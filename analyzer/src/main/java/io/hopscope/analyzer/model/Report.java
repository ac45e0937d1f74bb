package io.hopscope.analyzer.model;

import java.util.List;

/**
 * The result of {@code report}: the recording's facts, one summary per request name, the selected
 * requests in report order (the worst first, then the sample, as {@code kept} says), and the window
 * of request starts they were taken from. {@code requests} may be a read-only view that builds each
 * record when it is read: iterate it, do not keep it around. With warm-up requests kept apart
 * ({@link Warmup#apart}), {@code requests} are the steady ones and {@code warmupRequests} the worst
 * warm-up ones; otherwise {@code warmupRequests} is empty. {@code warmup} says which was asked.
 */
public record Report(RecordingInfo recording, List<NameSummary> summary, List<Request> requests,
                     RequestWindow window, RequestsKept kept, List<Request> warmupRequests, Warmup warmup) {

    /** A report of the whole recording. */
    public Report(RecordingInfo recording, List<NameSummary> summary, List<Request> requests) {
        this(recording, summary, requests, RequestWindow.ALL, RequestsKept.NOT_STATED, List.of(), Warmup.include);
    }

    /** The agent's own work on every request summed, which no figure counts. */
    public AgentWork agentWork() {
        AgentWork sum = AgentWork.NONE;
        for (NameSummary s : summary) {
            sum = sum.plus(s.agentWork());
        }
        return sum;
    }

    /** The requests of every name by kind. */
    public RequestKinds kinds() {
        RequestKinds sum = RequestKinds.NONE;
        for (NameSummary s : summary) {
            sum = sum.plus(s.kinds());
        }
        return sum;
    }

    /** Warm-up requests over all names. */
    public long warmupRequestCount() {
        return summary.stream().mapToLong(NameSummary::warmupRequests).sum();
    }
}
