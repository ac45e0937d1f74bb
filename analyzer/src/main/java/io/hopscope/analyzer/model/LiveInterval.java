package io.hopscope.analyzer.model;

import java.util.List;
import java.util.Map;

/**
 * One interval of {@code hopscope live}, by event time: the process's figures and one {@link Name}
 * per request name that was active in it. Per-request figures are over the requests that finished
 * in the interval and whose start was seen ({@code measured}), and null when there is none.
 *
 * @param epochMillis the interval's start
 * @param liveThreads the process's live threads in the interval (the ThreadMXBean's count asked in it; the one before
 *     it when it has none)
 * @param inFlight requests started and not finished at the interval's end, all names
 * @param gcPauseNanos GC pause time in the interval
 */
public record LiveInterval(long epochMillis, int liveThreads, long inFlight, long gcPauseNanos, List<Name> names) {

    /**
     * One request name's figures in the interval.
     *
     * @param hopsPerRequestByKind mean hops of each kind (handoff, wake, return) per finished request
     * @param queueDelayNanos mean queue delay (handoff hops) per finished request
     * @param wakeLatencyNanos mean wake latency (wake hops) per finished request
     * @param lockNanosPerRequest mean monitor-enter time (jdk.JavaMonitorEnter) inside the request's segments
     * @param finishedBegunBefore requests that finished in the interval but began before live watched
     *     (in flight at attach): not in {@code finished} nor the per-request figures
     * @param serverQueueNanos mean time in their server's queue of the server requests that finished in the
     *     interval (a server's hand-overs, in none of the hop figures); null when none finished
     * @param serverQueueMaxNanos the longest of those
     */
    public record Name(String name, long started, long finished, long inFlight, Long meanNanos, Long p99Nanos,
            Double hopsPerRequest, Map<String, Double> hopsPerRequestByKind, Long queueDelayNanos,
            Long wakeLatencyNanos, Long allocatedBytesPerRequest, Long lockNanosPerRequest, long measured,
            long finishedBegunBefore, Long serverQueueNanos, Long serverQueueMaxNanos) {

        /** A name no server request of which finished in the interval. */
        public Name(String name, long started, long finished, long inFlight, Long meanNanos, Long p99Nanos,
                    Double hopsPerRequest, Map<String, Double> hopsPerRequestByKind, Long queueDelayNanos,
                    Long wakeLatencyNanos, Long allocatedBytesPerRequest, Long lockNanosPerRequest, long measured,
                    long finishedBegunBefore) {
            this(name, started, finished, inFlight, meanNanos, p99Nanos, hopsPerRequest, hopsPerRequestByKind,
                    queueDelayNanos, wakeLatencyNanos, allocatedBytesPerRequest, lockNanosPerRequest, measured,
                    finishedBegunBefore, null, null);
        }
    }
}
