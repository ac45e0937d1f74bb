package io.hopscope.analyzer.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.DiffBuilder;
import io.hopscope.analyzer.model.DiffRow;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.Report;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The diff adds the carrier rows only where a side had virtual threads, and the report names them. */
class VirtualDiffTest {

    @Test
    void carrierRowsAppearOnlyWhenASideHasVirtualThreads() {
        Report platform = ExpectedOutputTest.report("a.jfr", 1);
        Report virtual = withVirtual(ExpectedOutputTest.report("b.jfr", 1), 2.5, 40_000, 1_500_000);
        assertThat(DiffBuilder.diff(platform, platform).rows()).extracting(DiffRow::metric)
                .doesNotContain("mounts/request", "mount wait/request", "pinned/request");
        List<DiffRow> rows = DiffBuilder.diff(platform, virtual).rows();
        assertThat(rows).filteredOn(r -> r.metric().equals("mounts/request")).singleElement()
                .satisfies(r -> {
                    assertThat(r.a()).isZero();
                    assertThat(r.b()).isEqualTo(2.5);
                });
        assertThat(rows).filteredOn(r -> r.metric().equals("pinned/request")).singleElement()
                .satisfies(r -> assertThat(r.b()).isEqualTo(1_500_000));

        StringWriter text = new StringWriter();
        TextReport.writeSummary(virtual.summary(), new PrintWriter(text));
        assertThat(text.toString()).contains("virtual threads of GET 127.0.0.1/blob: 2.5 mount(s), mount wait 40.0 us,"
                + " pinned 1.50 ms per request");
    }

    private static Report withVirtual(Report r, double mounts, double mountWaitNanos, double pinnedNanos) {
        NameSummary s = r.summary().get(0);
        NameSummary v = new NameSummary(s.name(), s.count(), s.throughputPerSecond(), s.p50Nanos(), s.p90Nanos(),
                s.p99Nanos(), s.maxNanos(), s.meanNanos(), s.meanHops(), s.maxHops(), s.meanQueueDelayNanos(),
                s.meanWakeLatencyNanos(), s.meanHandoffHops(), s.meanWakeHops(), s.meanReturnHops(),
                s.meanReturnDelayNanos(), s.meanAllocatedBytes(), s.meanLockNanos(), s.meanBlockedNanos(),
                s.meanGcNanos(), mounts, mountWaitNanos, pinnedNanos, s.nonBlockingShare(), s.errors(),
                s.meanUnexplainedNanos(), s.explainedShare(), s.unexplainedRequests());
        return new Report(r.recording(), List.of(v), r.requests());
    }
}
