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
    void everySettingIsKeyedByItsEventAndTheProfilesAddTheirJoinedEvents() {
        Map<String, String> figures = LiveCommand.settings(1_000_000_000L, false);
        assertThat(figures).containsEntry("hopscope.ClockSync#period", "250 ms")
                .containsEntry("hopscope.Request#enabled", "true")
                .containsEntry("hopscope.RequestStart#enabled", "true")
                .containsEntry("jdk.JavaMonitorEnter#threshold", "10 ms")
                .containsEntry("jdk.JavaMonitorEnter#stackTrace", "false")
                .doesNotContainKey("jdk.ExecutionSample#enabled");
        assertThat(figures.keySet()).allSatisfy(k -> assertThat(k).matches("[\\w.]+#\\w+"));
        assertThat(LiveCommand.settings(200_000_000L, false)).containsEntry("hopscope.ClockSync#period", "50 ms");

        Map<String, String> profiles = LiveCommand.settings(1_000_000_000L, true);
        assertThat(profiles).containsEntry("jdk.ExecutionSample#enabled", "true")
                .containsEntry("jdk.ExecutionSample#period", "20 ms")
                .containsEntry("jdk.ObjectAllocationSample#throttle", "150/s")
                .containsEntry("jdk.ObjectAllocationSample#stackTrace", "true")
                .containsEntry("jdk.ThreadPark#threshold", "10 ms")
                .doesNotContainKey("jdk.NativeMethodSample#enabled");
    }
}
