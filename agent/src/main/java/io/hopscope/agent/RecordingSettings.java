package io.hopscope.agent;

import io.hopscope.settings.HopscopeJfc;
import java.io.IOException;

/**
 * The text of the recording settings the agent starts with {@code jfr=}: {@code hopscope.jfc} from
 * the jar, with the stack traces of {@code jdk.JavaMonitorEnter} switched on for
 * {@code lockstacks=true} and the threshold of {@code hopscope.Span} replaced for
 * {@code spanthreshold=}.
 *
 * <p>Why monitor-enter stacks are off by default: HotSpot (JDK 17) walks the entering thread's stack
 * at every contended monitor enter while that event records stack traces, before it knows whether
 * the wait will pass the event's threshold. On the pipeline sample (eight callers sharing OkHttp's
 * connection pool lock) those walks were 1.2% of the process's CPU, a third of the agent's budget,
 * for the stacks of events that are almost all under the 10 ms threshold and never written.
 *
 * <p>Why spans have a threshold: see the comment in {@code hopscope.jfc}.
 */
final class RecordingSettings {

    private static final String MONITOR_ENTER_OFF =
            "<event name=\"jdk.JavaMonitorEnter\"><setting name=\"enabled\">true</setting><setting name=\"stackTrace\">false</setting>";
    private static final String SPAN_THRESHOLD =
            "<event name=\"hopscope.Span\"><setting name=\"enabled\">true</setting><setting name=\"threshold\">";

    private RecordingSettings() {
    }

    /**
     * The settings, with monitor-enter stacks on or off and the span threshold in JFR's syntax
     * ({@code 0 ns}, {@code 500 us}), or null to keep the shipped one.
     */
    static String jfc(boolean lockStacks, String spanThreshold) throws IOException {
        String text = HopscopeJfc.text();
        if (!text.contains(MONITOR_ENTER_OFF)) {
            throw new IOException(HopscopeJfc.RESOURCE + " no longer names jdk.JavaMonitorEnter as RecordingSettings expects");
        }
        int span = text.indexOf(SPAN_THRESHOLD);
        int spanEnd = span < 0 ? -1 : text.indexOf('<', span + SPAN_THRESHOLD.length());
        if (spanEnd < 0) {
            throw new IOException(HopscopeJfc.RESOURCE + " no longer names hopscope.Span as RecordingSettings expects");
        }
        if (spanThreshold != null) {
            text = text.substring(0, span + SPAN_THRESHOLD.length()) + spanThreshold + text.substring(spanEnd);
        }
        if (lockStacks) {
            text = text.replace(MONITOR_ENTER_OFF, MONITOR_ENTER_OFF.replace(">false<", ">true<"));
        }
        return text;
    }
}
