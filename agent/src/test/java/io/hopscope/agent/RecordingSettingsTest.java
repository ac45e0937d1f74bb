package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import jdk.jfr.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The settings jfr= records with: monitor-enter stacks only when asked for, spans from 1 ms unless
 * told otherwise, and valid either way.
 */
class RecordingSettingsTest {

    @Test
    void monitorEnterStacksAreOffByDefaultAndOnWithLockStacks() throws Exception {
        Configuration byDefault = Configuration.create(new StringReader(RecordingSettings.jfc(false, null)));
        Configuration withStacks = Configuration.create(new StringReader(RecordingSettings.jfc(true, null)));
        assertThat(byDefault.getSettings()).containsEntry("jdk.JavaMonitorEnter#stackTrace", "false")
                .containsEntry("jdk.JavaMonitorEnter#threshold", "10 ms")
                .containsEntry("jdk.ThreadPark#stackTrace", "true");
        assertThat(withStacks.getSettings()).containsEntry("jdk.JavaMonitorEnter#stackTrace", "true");
        // Nothing else changes.
        withStacks.getSettings().forEach((key, value) -> {
            if (!key.equals("jdk.JavaMonitorEnter#stackTrace")) {
                assertThat(byDefault.getSettings()).containsEntry(key, value);
            }
        });
    }

    @Test
    void spansAreWrittenFromOneMillisecondUnlessSpanThresholdSaysOtherwise() throws Exception {
        Configuration byDefault = Configuration.create(new StringReader(RecordingSettings.jfc(false, null)));
        Configuration everySpan = Configuration.create(new StringReader(RecordingSettings.jfc(true, "0 ns")));
        assertThat(byDefault.getSettings()).containsEntry("hopscope.Span#threshold", "1 ms")
                .containsEntry("hopscope.Request#threshold", "0 ms")
                .containsEntry("hopscope.Segment#threshold", "0 ms");
        assertThat(everySpan.getSettings()).containsEntry("hopscope.Span#threshold", "0 ns")
                .containsEntry("jdk.JavaMonitorEnter#stackTrace", "true");
        everySpan.getSettings().forEach((key, value) -> {
            if (!key.equals("hopscope.Span#threshold") && !key.equals("jdk.JavaMonitorEnter#stackTrace")) {
                assertThat(byDefault.getSettings()).containsEntry(key, value);
            }
        });
        assertThat(everySpan.getSettings()).hasSameSizeAs(byDefault.getSettings());
    }
}
