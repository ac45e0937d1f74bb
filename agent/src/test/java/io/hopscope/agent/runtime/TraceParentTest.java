package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The W3C traceparent an inbound request's caller sent: read when valid, nothing otherwise, never a throw. */
class TraceParentTest {

    @Test
    void aValidHeaderGivesItsTraceAndParentSpan() {
        assertThat(TraceParent.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                .containsExactly("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
        // A later version may add fields after a dash; spaces around the value are not part of it.
        assertThat(TraceParent.parse(" 01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-future "))
                .containsExactly("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "00-NOT-A-TRACE-PARENT-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", // version 00 has no more fields
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // version ff is invalid
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", // uppercase
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // all-zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // all-zero parent id
        "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",
        "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g",
    })
    void anythingMalformedIsNoTraceContext(String header) {
        assertThat(TraceParent.parse(header)).isNull();
    }

    @Test
    void noHeaderIsNoTraceContext() {
        assertThat(TraceParent.parse(null)).isNull();
    }
}
