package io.hopscope.analyzer.output;

import static io.hopscope.analyzer.output.ExpectedOutputTest.CALLER;
import static io.hopscope.analyzer.output.ExpectedOutputTest.LOOP;
import static io.hopscope.analyzer.output.ExpectedOutputTest.MS;
import static io.hopscope.analyzer.output.ExpectedOutputTest.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.model.Wait;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The text report's lanes draw what a request's events name, and an event whose thread the
 * recording did not resolve (a wait event without its thread) leaves its lane out instead of
 * failing the report (a CI run on 2026-11-26 ended in a NullPointerException on such a wait).
 */
class TextLanesTest {

    @Test
    void aWaitWithoutItsThreadHasNoLane() {
        long d = 12 * MS;
        StringWriter out = new StringWriter();
        TextReport.writeLanes(ExpectedOutputTest.request(d, List.of(
                new Wait("Mono.block", null, LOOP, T0 + 6 * MS, T0 + 5 * MS + d - MS, 120_000, false, "value"))),
                new PrintWriter(out, true));
        List<String> lanes = out.toString().lines().skip(1).toList();
        assertThat(lanes).hasSize(2);
        assertThat(lanes.get(0)).startsWith("  " + CALLER.label()).doesNotContain(".");
        assertThat(lanes.get(1)).startsWith("  " + LOOP.label());
    }

    @Test
    void aWaitWithItsThreadIsDrawnOnItsLane() {
        long d = 12 * MS;
        StringWriter out = new StringWriter();
        TextReport.writeLanes(ExpectedOutputTest.request(d, List.of(
                new Wait("Mono.block", CALLER, LOOP, T0 + 6 * MS, T0 + 5 * MS + d - MS, 120_000, false, "value"))),
                new PrintWriter(out, true));
        assertThat(out.toString().lines().skip(1).findFirst().orElseThrow()).contains("....");
    }
}
