package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.Unexplained;
import org.junit.jupiter.api.Test;

/** What explains a park inside a request's segments: its waits and wake hops on the same thread, no more. */
class BlindSpotsTest {

    static final long T = 7;
    static final long OTHER = 8;

    @Test
    void aParkNothingCoversIsUnexplainedWholeAndByItsSite() {
        BlindSpots b = new BlindSpots();
        b.addWait(OTHER, 100, 300); // another thread's wait
        b.addWake(T, 300, 310); // left after the park ended
        b.addParked(BlindSpots.PARK, T, 100, 200, 100, "a.Blocker", null, null);
        b.addParked(BlindSpots.MONITOR_WAIT, T, 400, 450, 50, "a.Lock", null, new ThreadRef(9, 90, "notifier"));
        b.finish();
        Unexplained u = b.toUnexplained(3);
        assertThat(u.nanos()).isEqualTo(150);
        assertThat(u.count()).isEqualTo(2);
        assertThat(u.top()).extracting(s -> s.kind() + " " + s.frame() + " " + s.blocker() + " " + s.nanos())
                .containsExactly("park ? a.Blocker 100", "monitorWait ? a.Lock 50");
        assertThat(u.top().get(1).waker().name()).isEqualTo("notifier");
        assertThat(u.explainedShare(1_000)).isEqualTo(0.85);
    }

    @Test
    void aWaitOfTheSameThreadExplainsWhatItOverlaps() {
        BlindSpots b = new BlindSpots();
        b.addWait(T, 150, 300);
        b.addWait(T, 160, 170); // inside the first: counted once
        b.addParked(BlindSpots.PARK, T, 100, 200, 100, null, null, null);
        b.finish();
        assertThat(b.toUnexplained(3).nanos()).isEqualTo(50);
    }

    @Test
    void aWakeHopThatLeftDuringTheParkExplainsItUpToItsArrival() {
        BlindSpots b = new BlindSpots();
        b.addWake(T, 190, 205);
        b.addParked(BlindSpots.PARK, T, 100, 200, 100, null, null, null);
        b.addWake(T, 560, 585); // arrives before this park ends: the rest is unexplained
        b.addParked(BlindSpots.PARK, T, 500, 600, 100, null, null, null);
        b.finish();
        Unexplained u = b.toUnexplained(3);
        assertThat(u.nanos()).isEqualTo(15);
        assertThat(u.count()).isEqualTo(1);
    }

    @Test
    void onlyTheTimeInsideSegmentsCounts() {
        BlindSpots b = new BlindSpots();
        // 100 ns of the park fell in the request's segments, and a wait covers 60 ns of the park.
        b.addWait(T, 0, 60);
        b.addParked(BlindSpots.PARK, T, 0, 1_000, 100, null, null, null);
        b.finish();
        assertThat(b.toUnexplained(3).nanos()).isEqualTo(40);
    }
}
