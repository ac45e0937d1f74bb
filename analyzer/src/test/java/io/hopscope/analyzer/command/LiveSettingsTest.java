package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The settings live gives its stream, all as {@code event#setting} keys (JDK 17's
 * {@code RemoteRecordingStream.enable(event).with(...)} loses the event's name, so a setting given that
 * way never reaches the target): hopscope.jfc's, and the JDK events of the profiles only with them.
 */
class LiveSettingsTest {

    @Test
    void everySettingIsKeyedByItsEvent() {
        Map<String, String> figures = LiveCommand.settings(1_000_000_000L);
        assertThat(figures).containsEntry("hopscope.ClockSync#period", "250 ms")
                .containsEntry("hopscope.Request#enabled", "true")
                .containsEntry("hopscope.RequestStart#enabled", "true")
                .containsEntry("jdk.JavaMonitorEnter#threshold", "10 ms")
                .containsEntry("jdk.JavaMonitorEnter#stackTrace", "false")
                .doesNotContainKey("jdk.ExecutionSample#enabled");
        assertThat(figures.keySet()).allSatisfy(k -> assertThat(k).matches("[\\w.]+#\\w+"));
        assertThat(LiveCommand.settings(200_000_000L)).containsEntry("hopscope.ClockSync#period", "50 ms");

    }
}
