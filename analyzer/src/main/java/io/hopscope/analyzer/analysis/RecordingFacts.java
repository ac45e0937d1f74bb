package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.LateEvents;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.read.ClockAlignment;
import io.hopscope.analyzer.read.HopscopeEvents.AgentErrorEvent;
import io.hopscope.analyzer.read.HopscopeEvents.AgentInfoEvent;
import io.hopscope.analyzer.read.HopscopeEvents.ClockSyncEvent;
import io.hopscope.analyzer.read.JdkEventFields;
import io.hopscope.analyzer.read.JfrEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.hopscope.analyzer.read.JfrEvent;

/**
 * What the report says about the recording itself rather than its requests: the time it spans, how
 * many events of each side were read, the agent's version, options and errors, the clock mapping,
 * the peak thread count, and the warnings gathered along the way.
 */
final class RecordingFacts {

    private final String source;
    final ClockAlignment clock = new ClockAlignment();
    private final Map<String, Long> agentErrors = new TreeMap<>();
    private final List<String> warnings = new ArrayList<>();
    private long hopscopeEvents;
    private long jdkEvents;
    private long minStart = Long.MAX_VALUE;
    long maxEnd = Long.MIN_VALUE;
    private String agentVersion;
    private String agentOptions;
    private long peakThreads = -1;
    int scanMajor;
    int scanMinor;

    /** {@code source} names the recording in warnings: its file, or the stream's process. */
    RecordingFacts(String source) {
        this.source = source;
    }

    private void seen(long start, long end) {
        minStart = Math.min(minStart, start);
        maxEnd = Math.max(maxEnd, end);
    }

    /** Counts an agent event and its times (every agent event handler starts here). */
    void hopscopeEvent(long start, long end) {
        hopscopeEvents++;
        seen(start, end);
    }

    /** Counts a JDK event and its times (every JDK event handler starts here). */
    void jdkEvent(long start, long end) {
        jdkEvents++;
        seen(start, end);
    }

    /**
     * A JDK event read only to be counted: jdk.CPULoad, jdk.ThreadStart and jdk.ThreadEnd are used by
     * nothing else, but "jdk events read" and the recording's span in every report include them.
     */
    void onCountedOnly(JfrEvent e) {
        jdkEvent(e.startNanos(), e.endNanos());
    }

    void onThreadStatistics(JfrEvent e) {
        jdkEvent(e.startNanos(), e.endNanos());
        peakThreads = Math.max(peakThreads, JdkEventFields.peakThreadCount(e));
    }

    // The agent's events that belong to no request: clock sync, agent info and errors.

    void onClockSync(ClockSyncEvent e) {
        long start = e.startNanos();
        hopscopeEvent(start, e.endNanos());
        clock.add(start, e.monotonicNanos());
    }

    void onAgentInfo(AgentInfoEvent e) {
        hopscopeEvent(e.startNanos(), e.endNanos());
        agentVersion = e.version();
        agentOptions = e.options();
    }

    void onAgentError(AgentErrorEvent e) {
        hopscopeEvent(e.startNanos(), e.endNanos());
        agentErrors.merge(e.source() + ": " + e.message(), e.count(), Math::max);
    }

    /** An agent event read only to be counted (hopscope.NonBlockingWait). */
    void onCountedOnlyAgentEvent(JfrEvent e) {
        hopscopeEvent(e.startNanos(), e.endNanos());
    }

    void warn(String warning) {
        warnings.add(source + ": " + warning);
    }

    /** Warnings that depend only on what was read, then the agent's errors; after the request warnings. */
    void warnNoEvents() {
        if (hopscopeEvents == 0) {
            warn("no hopscope events (not recorded under the hopscope agent); "
                    + "only what the jdk events allow is reported");
            if (jdkEvents == 0) {
                warn("none of the jdk events the analyzer reads either (gc, threads, allocation "
                        + "samples, locks; format " + scanMajor + "." + scanMinor + " recordings of jdk 9 name them "
                        + "com.oracle.jdk.*), so the report is empty");
            }
        }
    }

    RecordingInfo build(GcPauses gc, long allocInRequests, JdkEventAttribution jdk, long incomplete,
                        LateEvents late) {
        agentErrors.forEach((what, count) -> warn("agent error (" + count + "x) " + what));
        return new RecordingInfo(source,
                minStart == Long.MAX_VALUE ? 0 : minStart, maxEnd == Long.MIN_VALUE ? 0 : maxEnd,
                hopscopeEvents > 0, hopscopeEvents, jdkEvents, agentVersion, agentOptions,
                clock.offsetNanos(), clock.count(), gc.count(), gc.pauseNanos(), peakThreads, allocInRequests,
                jdk.sampledAllocBytes(), jdk.sampledAllocBytesInRequests(), incomplete, late, List.copyOf(warnings));
    }
}
