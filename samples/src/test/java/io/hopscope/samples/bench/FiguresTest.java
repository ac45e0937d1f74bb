package io.hopscope.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.samples.bench.Figures.Spread;
import io.hopscope.samples.bench.RunLauncher.RunResult;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bench's arithmetic: medians, ratios round by round, a failed round left out, not counted as zero. */
class FiguresTest {

    @Test
    void medianOfOddAndEvenCountsAndOfNone() {
        assertThat(Figures.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(Figures.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
        assertThat(Figures.median(List.of())).isNull();
    }

    @Test
    void ratioAndDifferenceOfUnknownOrEmptyAreUnknown() {
        assertThat(Figures.ratio(1.5, 2.0)).isEqualTo(0.75);
        assertThat(Figures.ratio(1.0, 0.0)).isNull();
        assertThat(Figures.ratio(null, 2.0)).isNull();
        assertThat(Figures.ratio(-1.0, 2.0)).isNull();
        assertThat(Figures.difference(50.0, 45.5)).isEqualTo(4.5);
        // The sample prints -1 where the JVM cannot tell its CPU time.
        assertThat(Figures.difference(-1.0, 45.5)).isNull();
    }

    @Test
    void spreadSkipsUnknownValues() {
        Spread s = Spread.of(Arrays.asList(1.02, null, 0.98, 1.04));

        assertThat(s.median()).isEqualTo(1.02);
        assertThat(s.min()).isEqualTo(0.98);
        assertThat(s.max()).isEqualTo(1.04);
        assertThat(s.count()).isEqualTo(3);
        assertThat(Spread.of(List.of()).median()).isNull();
    }

    @Test
    void rowRatiosPairEachRoundWithTheBaselinesOfTheSameRound() {
        Row base = row(Configuration.NONE, run(1000, 800, 40, 2000, 9000), run(1100, 900, 42, 2200, 9100),
                run(900, 700, 44, 1800, 8900));
        Row agent = row(Configuration.HOPSCOPE, run(1000, 600, 44, 2100, 9500), RunResult.failed("exit 1"),
                run(891, 630, 47, 1800, 9700));

        Row.Summary s = agent.summary(base);

        // Rounds 1 and 3: 1000/1000 = 1.0 and 891/900 = 0.99; round 2 failed and is left out.
        assertThat(s.throughputRatio().median()).isCloseTo(0.995, within());
        assertThat(s.throughputRatio().min()).isCloseTo(0.99, within());
        assertThat(s.throughputRatio().max()).isCloseTo(1.0, within());
        assertThat(s.throughputRatio().count()).isEqualTo(2);
        assertThat(s.firstWindowRatio().median()).isCloseTo((0.75 + 0.9) / 2, within());
        assertThat(s.cpuAddedUsPerOp()).isCloseTo(3.5, within());
        assertThat(s.p99Ratio()).isCloseTo((1.05 + 1.0) / 2, within());
        assertThat(s.allocatedBytesPerOp()).isCloseTo(9600, within());
        assertThat(agent.whyNoFigures()).isNull();
        assertThat(agent.failedRounds()).isEqualTo("round 2 failed: exit 1");
    }

    @Test
    void aRowThatCouldNotRunSaysWhy() {
        Row offwake = row(Configuration.HOPSCOPE_OFFWAKE, RunResult.unavailable("not running as root"),
                RunResult.unavailable("not running as root"));

        assertThat(offwake.whyNoFigures()).isEqualTo("not run: not running as root");
        assertThat(offwake.summary(null).throughputRatio().median()).isNull();
    }

    private static org.assertj.core.data.Offset<Double> within() {
        return org.assertj.core.data.Offset.offset(1e-9);
    }

    static Row row(Configuration config, RunResult... rounds) {
        Row row = new Row(Workload.OKHTTP_SYNC_64K, config);
        row.rounds.addAll(List.of(rounds));
        return row;
    }

    static RunResult run(double opsPerS, double firstOpsPerS, double cpuUsPerOp, double p99Us, double allocatedPerOp) {
        return RunResult.of(Map.of("ops_per_s", opsPerS, "first_window_ops_per_s", firstOpsPerS,
                "cpu_us_per_op", cpuUsPerOp, "latency_p99_us", p99Us, "allocated_bytes_per_op", allocatedPerOp));
    }
}
