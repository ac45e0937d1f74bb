package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

/**
 * The trace context a request begins in, read through the OpenTelemetry API the test's class path has
 * (as an application using the API or SDK without the OpenTelemetry agent): the current span's ids when
 * one is current and valid, none otherwise, and none where the request's class loader cannot see the API.
 * (With the OpenTelemetry Java agent: OtelTraceIdIT in the analyzer.)
 */
class TraceContextsTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN_ID = "00f067aa0ba902b7";

    /** A request object of the application's (its class loader sees the API). */
    private final Object request = new Local();

    @Test
    void noSpanCurrentIsNoTraceContext() {
        assertThat(TraceContexts.current(request)).isNull();
        assertThat(TraceContexts.current(null)).isNull();
    }

    @Test
    void theCurrentSpansIdsAreTheRequests() {
        Span span = Span.wrap(SpanContext.create(TRACE_ID, SPAN_ID, TraceFlags.getSampled(), TraceState.getDefault()));
        try (Scope ignored = span.makeCurrent()) {
            assertThat(TraceContexts.current(request)).containsExactly(TRACE_ID, SPAN_ID);
            assertThat(TraceContexts.current(null)).as("a requests= boundary").containsExactly(TRACE_ID, SPAN_ID);
            assertThat(TraceContexts.current(new StringBuilder())).as("a JDK class's (the JDK's HttpClient's)")
                    .containsExactly(TRACE_ID, SPAN_ID);
        }
        assertThat(TraceContexts.current(request)).as("after the scope closed").isNull();
    }

    @Test
    void anInvalidSpanIsNoTraceContext() {
        Span invalid = Span.wrap(SpanContext.create("00000000000000000000000000000000", SPAN_ID,
                TraceFlags.getDefault(), TraceState.getDefault()));
        try (Scope ignored = invalid.makeCurrent()) {
            assertThat(TraceContexts.current(request)).isNull();
        }
    }

    @Test
    void aRequestWhoseLoaderCannotSeeTheApiHasNone() throws Exception {
        // A loader of its own with the test classes but not the API's jar, under the platform loader.
        URL testClasses = TraceContextsTest.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader isolated = new URLClassLoader(new URL[] {testClasses}, ClassLoader.getPlatformClassLoader())) {
            Object foreign = isolated.loadClass(Foreign.class.getName()).getDeclaredConstructor().newInstance();
            assertThat(foreign.getClass().getClassLoader()).isSameAs(isolated);
            Span span = Span.wrap(SpanContext.create(TRACE_ID, SPAN_ID, TraceFlags.getSampled(), TraceState.getDefault()));
            try (Scope ignored = span.makeCurrent()) {
                assertThat(TraceContexts.current(foreign)).isNull();
                assertThat(TraceContexts.current(request)).as("the application's own").containsExactly(TRACE_ID, SPAN_ID);
            }
        }
    }

    /** A request object's class of the application's. */
    static final class Local {
    }

    /** A request object's class in a loader that does not see the OpenTelemetry API. */
    public static final class Foreign {
    }
}
