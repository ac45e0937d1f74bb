package io.hopscope.analyzer.analysis.threads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SegmentLane's sort: the order of a stable sort by start of the whole lane, ties in their order of appending. */
class SegmentLaneTest {

    /** A lane whose payload is the order each segment was appended in. */
    private static final class Appended extends SegmentLane {
        int[] seq = new int[8];

        Appended() {
            super(8);
        }

        void add(long start) {
            int i = append(start, start + 1);
            seq[i] = i;
        }

        @Override
        protected void resizePayload(int length) {
            seq = Arrays.copyOf(seq, length);
        }

        @Override
        protected void reorderPayload(int[] order, int from) {
            permute(seq, order, from);
        }

        long[] sortedStarts() {
            sort();
            return Arrays.copyOf(starts, n);
        }

        int[] sortedSeq() {
            sort();
            return Arrays.copyOf(seq, n);
        }
    }

    @Test
    void lateBuffersGoBackInPlaceAndTiesKeepTheirOrder() {
        // In order, then a late buffer (in order itself, one start equal to an earlier one), then more.
        long[] starts = {10, 20, 30, 40, 50, 60, 25, 30, 35, 70, 80, 5, 80, 90};
        assertSortedLikeAStableSort(starts);
    }

    @Test
    void sortsAgainAfterMoreLateSegments() {
        Appended lane = new Appended();
        for (long s : new long[] {100, 200, 300, 150}) {
            lane.add(s);
        }
        assertThat(lane.sortedStarts()).containsExactly(100, 150, 200, 300);
        lane.add(250);
        lane.add(50);
        lane.add(300);
        assertThat(lane.sortedStarts()).containsExactly(50, 100, 150, 200, 250, 300, 300);
        assertThat(lane.sortedSeq()).containsExactly(5, 0, 3, 1, 4, 2, 6);
    }

    @Test
    void manyInterleavedRuns() {
        // Deterministic: runs of rising starts, each run starting somewhat before the last one ended, many ties.
        long[] starts = new long[5000];
        long t = 0;
        for (int i = 0; i < starts.length; i++) {
            t = i % 37 == 0 ? t - (i * 7919L) % 400 : t + (i * 31L) % 5;
            starts[i] = t;
        }
        assertSortedLikeAStableSort(starts);
    }

    @Test
    void anEmptyOrOneSegmentLaneIsSorted() {
        Appended lane = new Appended();
        assertThat(lane.sortedStarts()).isEmpty();
        lane.add(7);
        assertThat(lane.sortedStarts()).containsExactly(7);
    }

    private static void assertSortedLikeAStableSort(long[] starts) {
        Appended lane = new Appended();
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < starts.length; i++) {
            lane.add(starts[i]);
            expected.add(i);
        }
        expected.sort(Comparator.comparingLong(i -> starts[i])); // List.sort is stable
        int[] seq = lane.sortedSeq();
        assertThat(seq).containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
        long[] sortedStarts = lane.sortedStarts();
        for (int k = 0; k < seq.length; k++) {
            assertThat(sortedStarts[k]).isEqualTo(starts[seq[k]]);
            assertThat(lane.end(k)).isEqualTo(starts[seq[k]] + 1);
        }
    }
}
