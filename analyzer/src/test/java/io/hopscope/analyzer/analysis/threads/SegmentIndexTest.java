package io.hopscope.analyzer.analysis.threads;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** SegmentIndex lookups on lanes filled out of order past their first capacity, so they grow and sort. */
class SegmentIndexTest {

    @Test
    void findsTheSlotOfEachSegmentAfterGrowingAndSorting() {
        SegmentIndex index = new SegmentIndex();
        // 40 segments of 10 ns each, 100 ns apart, added in reverse on thread 7: the lane (16 wide at
        // first) grows twice and must be sorted before lookups.
        for (int k = 39; k >= 0; k--) {
            index.add(7, k * 100L, k * 100L + 10, 1000 + k);
        }
        index.add(8, 0, 5_000, 1);
        index.freeze();

        assertThat(index.size()).isEqualTo(41);
        for (int k = 0; k < 40; k++) {
            assertThat(index.find(7, k * 100L + 5, k * 100L + 5)).as("segment %d", k).isEqualTo(1000 + k);
        }
        assertThat(index.find(7, 50, 50)).isEqualTo(-1);
        assertThat(index.find(9, 5, 5)).isEqualTo(-1);
        assertThat(index.find(8, 2_000, 2_000)).isEqualTo(1);
        // [95, 215] covers segments 1 and 2 (10 ns each), [95, 205] half of segment 2, segment 0 neither.
        assertThat(index.overlapNanos(7, 95, 215, 1001)).isEqualTo(10);
        assertThat(index.overlapNanos(7, 95, 205, 1002)).isEqualTo(5);
        assertThat(index.overlapNanos(7, 95, 215, 1000)).isZero();
    }
}
