package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.threads.SegmentWindow;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Events waiting for their segment: placed at a flush point once it is in the window, kept while it may
 * still come (four flush points), then outside; at the end, outside at once. What happened is written
 * down in order, so the order events are handed on in is checked too.
 */
class PendingPlacementTest {

    private final SegmentWindow<RequestInProgress> window = new SegmentWindow<>(r -> r.finished);
    private final List<String> seen = new ArrayList<>();
    private final PendingPlacement<String> pending = new PendingPlacement<>(window,
            (event, thread, start, end, r) -> seen.add(event + " in " + r.id + " on " + thread + " " + start + "-" + end),
            event -> seen.add(event + " outside"));

    @Test
    void anEventIsPlacedAtTheNextFlushPointWithTheSpanItWasLookedUpBy() {
        window.add(7, 100, 200, new RequestInProgress(1, false));
        pending.add(7, 150, 160, "lock");
        pending.add(7, 120, 120, "sample");
        assertThat(seen).isEmpty();
        pending.onFlush(1);
        assertThat(seen).containsExactly("lock in 1 on 7 150-160", "sample in 1 on 7 120-120");
        pending.onFlush(2);
        assertThat(seen).hasSize(2);
    }

    @Test
    void anEventWaitsFourFlushPointsForItsSegmentThenIsOutside() {
        pending.onFlush(10);
        pending.add(7, 150, 150, "late segment");
        pending.add(8, 150, 150, "no segment");
        for (long flush = 11; flush <= 13; flush++) {
            pending.onFlush(flush);
        }
        assertThat(seen).isEmpty();
        window.add(7, 100, 200, new RequestInProgress(3, false));
        pending.onFlush(14);
        assertThat(seen).containsExactly("late segment in 3 on 7 150-150", "no segment outside");
    }

    @Test
    void aSegmentOfAFinishedRequestPlacesNothing() {
        RequestInProgress done = new RequestInProgress(4, false);
        window.add(7, 100, 200, done);
        done.finished = true;
        pending.onFlush(1);
        pending.add(7, 150, 150, "after its end");
        pending.onFlush(2);
        assertThat(seen).isEmpty();
        pending.placeRemaining();
        assertThat(seen).containsExactly("after its end outside");
    }

    @Test
    void atTheEndWhatIsNotFoundIsOutsideAtOnceAndNothingWaitsAfter() {
        window.add(7, 100, 200, new RequestInProgress(5, false));
        pending.add(9, 150, 150, "a");
        pending.add(7, 150, 150, "b");
        pending.add(9, 160, 160, "c");
        pending.placeRemaining();
        assertThat(seen).containsExactly("a outside", "b in 5 on 7 150-150", "c outside");
        seen.clear();
        pending.onFlush(100);
        pending.placeRemaining();
        assertThat(seen).isEmpty();
    }

    @Test
    void whatStillWaitsKeepsItsOrderAndItsFlushPointAcrossManyEvents() {
        // More events than the first arrays hold, half of them placed each round: growth and compaction.
        pending.onFlush(1);
        for (int i = 0; i < 100; i++) {
            pending.add(i % 2 == 0 ? 7 : 8, 1000 + i, 1000 + i, "e" + i);
        }
        window.add(7, 0, 5000, new RequestInProgress(6, false));
        pending.onFlush(2);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 100; i += 2) {
            expected.add("e" + i + " in 6 on 7 " + (1000 + i) + "-" + (1000 + i));
        }
        assertThat(seen).containsExactlyElementsOf(expected);
        seen.clear();
        pending.add(8, 1, 1, "newer");
        window.add(8, 0, 5000, new RequestInProgress(7, false));
        pending.onFlush(3);
        expected.clear();
        for (int i = 1; i < 100; i += 2) {
            expected.add("e" + i + " in 7 on 8 " + (1000 + i) + "-" + (1000 + i));
        }
        expected.add("newer in 7 on 8 1-1");
        assertThat(seen).containsExactlyElementsOf(expected);
    }
}
