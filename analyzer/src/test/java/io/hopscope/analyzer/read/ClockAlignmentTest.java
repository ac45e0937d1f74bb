package io.hopscope.analyzer.read;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The ClockSync median: robust to an event delayed between its two clock reads. */
class ClockAlignmentTest {

    @Test
    void unknownWithoutEvents() {
        ClockAlignment c = new ClockAlignment();
        assertThat(c.isKnown()).isFalse();
        assertThat(c.offsetNanos()).isZero();
    }

    @Test
    void medianIgnoresAnOutlier() {
        ClockAlignment c = new ClockAlignment();
        c.add(1_000_000_100L, 100);   // offset 1e9
        c.add(1_000_000_205L, 200);   // offset 1e9 + 5
        c.add(1_000_900_300L, 300);   // delayed: offset 1e9 + 900000
        assertThat(c.offsetNanos()).isEqualTo(1_000_000_005L);
        assertThat(c.toEpochNanos(1_000)).isEqualTo(1_000_001_005L);
        assertThat(c.toMonotonicNanos(1_000_001_005L)).isEqualTo(1_000);
    }

    @Test
    void evenCountTakesTheMiddleTwo() {
        ClockAlignment c = new ClockAlignment();
        for (int i = 0; i < 100; i++) {
            c.add(10_000L + i * 2, i);       // offsets 10000 + i
        }
        assertThat(c.count()).isEqualTo(100);
        assertThat(c.offsetNanos()).isEqualTo(10_049L); // (10049 + 10050) / 2, rounded down
    }
}
