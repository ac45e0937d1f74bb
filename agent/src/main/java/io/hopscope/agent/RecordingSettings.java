package io.hopscope.agent;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The text of the recording settings the agent starts with {@code jfr=}: {@code hopscope.jfc} from
 * the jar, with the stack traces of {@code jdk.JavaMonitorEnter} switched on for
 * {@code lockstacks=true}.
 *
 * <p>Why they are off by default: HotSpot (JDK 17) walks the entering thread's stack at every
 * contended monitor enter while that event records stack traces, before it knows whether the wait
 * will pass the event's threshold. On the pipeline sample (eight callers sharing OkHttp's connection
 * pool lock) those walks were 1.2% of the process's CPU, a third of the agent's budget, for the
 * stacks of events that are almost all under the 10 ms threshold and never written.
 */
final class RecordingSettings {

    static final String RESOURCE = "/hopscope.jfc";
    private static final String MONITOR_ENTER_OFF =
            "<event name=\"jdk.JavaMonitorEnter\"><setting name=\"enabled\">true</setting><setting name=\"stackTrace\">false</setting>";

    private RecordingSettings() {
    }

    static String jfc(boolean lockStacks) throws IOException {
        String text;
        try (InputStream in = RecordingSettings.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException("no " + RESOURCE + " in the agent jar");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!text.contains(MONITOR_ENTER_OFF)) {
            throw new IOException(RESOURCE + " no longer names jdk.JavaMonitorEnter as RecordingSettings expects");
        }
        return lockStacks ? text.replace(MONITOR_ENTER_OFF, MONITOR_ENTER_OFF.replace(">false<", ">true<")) : text;
    }
}
