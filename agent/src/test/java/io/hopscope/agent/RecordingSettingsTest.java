package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import jdk.jfr.Configuration;
import org.junit.jupiter.api.Test;

/** The settings jfr= records with: monitor-enter stacks only when asked for, and valid either way. */
class RecordingSettingsTest {

    @Test
    void monitorEnterStacksAreOffByDefaultAndOnWithLockStacks() throws Exception {
        Configuration byDefault = Configuration.create(new StringReader(RecordingSettings.jfc(false)));
        Configuration withStacks = Configuration.create(new StringReader(RecordingSettings.jfc(true)));
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
}
