package io.hopscope.analyzer.analysis.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.hopscope.analyzer.model.LiveInterval;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link LiveFigures} fed by hand, as the stream feeds it: which second each event counts in, and its figures. */
class LiveFiguresTest {

    static final long MS = 1_000_000L;
    static final long S = 1000 * MS;
    // A whole second: intervals are aligned on the epoch.
    static final long T0 = 1_700_000_000_000L * MS;

    @Test
    void aRequestIsInFlightFromItsStartUntilItsEnd() {
        LiveFigures f = new LiveFigures();
        for (long id = 1; id <= 3; id++) {
            f.started(id, "GET /a", T0 + id);
        }
        f.started(4, "GET /b", T0 + 4);
        f.threads(40, T0 + 500 * MS);
        assertThat(f.passed()).as("the stream has not passed the second yet").isEmpty();
        f.finished(1, "GET /a", 10 * MS, T0 + S + 10 * MS);
        List<LiveInterval> passed = f.passed();
        assertThat(passed).hasSize(1);
        LiveInterval first = passed.get(0);
        assertThat(first.epochMillis()).isEqualTo(T0 / MS);
        assertThat(first.inFlight()).isEqualTo(4);
        assertThat(first.liveThreads()).isEqualTo(40);
        assertThat(first.names()).extracting(LiveInterval.Name::name).containsExactly("GET /a", "GET /b");
        LiveInterval.Name a = first.names().get(0);
        assertThat(a.started()).isEqualTo(3);
        assertThat(a.finished()).isZero();
        assertThat(a.inFlight()).isEqualTo(3);
        assertThat(a.meanNanos()).isNull();
        assertThat(a.p99Nanos()).isNull();
        assertThat(a.hopsPerRequest()).isNull();

        f.threads(41, T0 + S + 500 * MS);
        f.tick(T0 + 2 * S);
        LiveInterval second = f.passed().get(0);
        assertThat(second.inFlight()).isEqualTo(3);
        assertThat(second.liveThreads()).isEqualTo(41);
        // Nothing started in the second interval, but /a and /b are still in flight: both are listed.
        assertThat(second.names()).extracting(LiveInterval.Name::name, LiveInterval.Name::started,
                LiveInterval.Name::finished, LiveInterval.Name::inFlight)
                .containsExactly(tuple("GET /a", 0L, 1L, 2L), tuple("GET /b", 0L, 0L, 1L));
        assertThat(second.names().get(0).meanNanos()).isEqualTo(10 * MS);
    }

    @Test
    void eventsCountInTheSecondOfTheirTimestampWhenTheyArriveAndQuietSecondsPrintAsQuiet() {
        LiveFigures f = new LiveFigures();
        // One flush brings seconds 0, 1 and 3 at once: second 2 had nothing.
        f.started(1, "op", T0 + 100 * MS);
        f.started(2, "op", T0 + S + 900 * MS);
        f.started(3, "op", T0 + S + 950 * MS);
        f.tick(T0 + 2 * S + 500 * MS);
        f.started(4, "op", T0 + 3 * S + 1);
        f.tick(T0 + 4 * S);
        List<LiveInterval> passed = f.passed();
        assertThat(passed).extracting(LiveInterval::epochMillis)
                .containsExactly(T0 / MS, T0 / MS + 1000, T0 / MS + 2000, T0 / MS + 3000);
        assertThat(passed).extracting(i -> i.names().get(0).started()).containsExactly(1L, 2L, 0L, 1L);
        assertThat(passed).extracting(LiveInterval::inFlight).containsExactly(1L, 3L, 3L, 4L);
        // No thread count in any: 0 until one comes.
        assertThat(passed).extracting(LiveInterval::liveThreads).containsOnly(0);
        assertThat(f.passed()).as("each interval is handed out once").isEmpty();
    }

    @Test
    void anEventOlderThanWhatWasPrintedGoesToTheOldestIntervalNotPrinted() {
        LiveFigures f = new LiveFigures();
        f.started(1, "op", T0);
        f.tick(T0 + S);
        assertThat(f.passed()).hasSize(1);
        f.started(2, "op", T0 + 500 * MS); // second 0 is printed: counted in second 1
        f.tick(T0 + 2 * S);
        LiveInterval next = f.passed().get(0);
        assertThat(next.epochMillis()).isEqualTo(T0 / MS + 1000);
        assertThat(next.names().get(0).started()).isEqualTo(1);
        assertThat(next.inFlight()).isEqualTo(2);
    }

    @Test
    void perRequestFiguresAreMeansOverTheRequestsThatFinishedInTheInterval() {
        LiveFigures f = new LiveFigures();
        f.started(1, "op", T0);
        f.started(2, "op", T0);
        // Request 1: a handoff with 2 ms in the queue, a wake 1 ms late, 1000 + 3000 bytes on two threads,
        // and a 40 ms monitor enter inside its segment on thread 7 (reported after the segment).
        f.hop(1, "handoff", 2 * MS, T0 + 1 * MS);
        f.hop(1, "wake", 1 * MS, T0 + 5 * MS);
        f.segment(1, 7, T0, T0 + 50 * MS, 1000);
        f.segment(1, 8, T0 + 50 * MS, T0 + 60 * MS, 3000);
        f.monitorEnter(7, T0 + 5 * MS, T0 + 45 * MS);
        // Request 2: a monitor enter on thread 9 reported before its segment, half inside it.
        f.monitorEnter(9, T0 - 10 * MS, T0 + 10 * MS);
        f.segment(2, 9, T0, T0 + 100 * MS, -1);
        f.hop(2, "return", 7 * MS, T0 + 90 * MS);
        f.finished(1, "op", 60 * MS, T0 + 60 * MS);
        f.finished(2, "op", 100 * MS, T0 + 100 * MS);
        f.gcPause(3 * MS, T0 + 200 * MS);
        f.gcPause(2 * MS, T0 + 300 * MS);
        f.tick(T0 + S);
        LiveInterval i = f.passed().get(0);
        assertThat(i.gcPauseNanos()).isEqualTo(5 * MS);
        assertThat(i.inFlight()).isZero();
        LiveInterval.Name op = i.names().get(0);
        assertThat(op.finished()).isEqualTo(2);
        assertThat(op.measured()).isEqualTo(2);
        assertThat(op.meanNanos()).isEqualTo(80 * MS);
        assertThat(op.p99Nanos()).isBetween(99 * MS, 101 * MS);
        assertThat(op.hopsPerRequest()).isEqualTo(1.5);
        assertThat(op.hopsPerRequestByKind()).isEqualTo(Map.of("handoff", 0.5, "wake", 0.5, "return", 0.5));
        assertThat(op.queueDelayNanos()).isEqualTo(1 * MS);
        assertThat(op.wakeLatencyNanos()).isEqualTo(MS / 2);
        // A thread without an allocation counter (-1) adds nothing.
        assertThat(op.allocatedBytesPerRequest()).isEqualTo(2000);
        assertThat(op.lockNanosPerRequest()).isEqualTo((40 + 10) * MS / 2);
        // The next interval starts from nothing.
        f.tick(T0 + 2 * S);
        LiveInterval next = f.passed().get(0);
        assertThat(next.names()).isEmpty();
        assertThat(next.gcPauseNanos()).isZero();
    }

    @Test
    void aRequestThatBeganBeforeTheStreamIsCountedApart() {
        LiveFigures f = new LiveFigures();
        f.hop(70, "wake", 5 * MS, T0);
        f.finished(70, "op", 0, T0);
        f.started(71, "op", T0);
        f.tick(T0 + S);
        LiveInterval i = f.passed().get(0);
        LiveInterval.Name op = i.names().get(0);
        assertThat(op.started()).isEqualTo(1);
        assertThat(op.finished()).isZero();
        assertThat(op.finishedBegunBefore()).isEqualTo(1);
        assertThat(op.inFlight()).isEqualTo(1);
        assertThat(op.measured()).isZero();
        assertThat(op.meanNanos()).isNull();
        assertThat(i.inFlight()).isEqualTo(1);
    }

    @Test
    void aStartSeenTwiceCountsOnce() {
        LiveFigures f = new LiveFigures();
        f.started(1, "op", T0);
        f.started(1, "op", T0);
        f.tick(T0 + S);
        assertThat(f.passed().get(0).inFlight()).isEqualTo(1);
    }

    @Test
    void aVirtualThreadsAllocationComesFromItsMountsWhileItsRequestIsOpen() {
        LiveFigures f = new LiveFigures();
        f.started(1, "op", T0);
        f.segment(1, 30, T0, T0 + 5 * MS, -1); // a virtual thread: no counter of its own
        f.mounts(1, 64_000);
        f.finished(1, "op", 5 * MS, T0 + 5 * MS);
        f.mounts(1, 1_000_000); // a worker's, after its request ended: not counted
        f.tick(T0 + S);
        LiveInterval.Name op = f.passed().get(0).names().get(0);
        assertThat(op.allocatedBytesPerRequest()).isEqualTo(64_000);
    }

    @Test
    void theThreadCountIsTheIntervalsLastOrTheOneBeforeAndDoesNotMoveTheStream() {
        LiveFigures f = new LiveFigures();
        f.threads(5, T0); // before any event: carried
        f.tick(T0 + 1);
        f.threads(10, T0 + 100 * MS);
        f.threads(12, T0 + 900 * MS);
        f.threads(30, T0 + 2 * S + 1);
        assertThat(f.passed()).as("a count is not the stream's position").isEmpty();
        f.tick(T0 + 3 * S);
        assertThat(f.passed()).extracting(LiveInterval::liveThreads).containsExactly(12, 12, 30);
    }

    @Test
    void intervalsOfHalfASecondAreAlignedOnTheEpoch() {
        LiveFigures f = new LiveFigures(500 * MS);
        f.started(1, "op", T0 + 700 * MS);
        f.tick(T0 + S + 1);
        List<LiveInterval> passed = f.passed();
        assertThat(passed).extracting(LiveInterval::epochMillis).containsExactly(T0 / MS + 500);
    }
}
