package io.hopscope.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** hopscope.jfc read as JFR reads it. */
class HopscopeJfcTest {

    @Test
    void aSettingIsReadAsTheFileGivesIt() {
        assertThat(HopscopeJfc.of("jdk.JavaMonitorEnter", "threshold")).isEqualTo("10 ms");
        assertThat(HopscopeJfc.of("jdk.JavaMonitorEnter", "stackTrace")).isEqualTo("false");
    }

    @Test
    void aSettingTheFileLacksIsAnError() {
        assertThatThrownBy(() -> HopscopeJfc.of("jdk.JavaMonitorEnter", "period"))
                .hasMessageContaining("sets no period for jdk.JavaMonitorEnter");
    }
}
