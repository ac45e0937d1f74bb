package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.testing.KnownPathRecording;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The known path, recorded in-process with contract events: the join must find what the path does. */
class KnownPathReportTest {

    static final long MS = 1_000_000L;

    @TempDir
    static Path dir;
    static Path recording;
    static Report report;

    @BeforeAll
    static void record() throws Exception {
        recording = dir.resolve("known-path.jfr");
        KnownPathRecording.write(recording, 3, 35);
        report = new RecordingAnalyzer(recording, AnalysisOptions.all()).analyze();
    }

    @Test
    void everyRequestHasThreeHopsOverThreeThreads() {
        assertThat(report.requests()).hasSize(3);
        for (Request r : report.requests()) {
            assertThat(r.name()).isEqualTo(KnownPathRecording.NAME);
            assertThat(r.outcome()).isEqualTo("ok");
            assertThat(r.hops().count()).isEqualTo(3);
            assertThat(r.hops().list()).extracting(Hop::kind).containsExactly("handoff", "handoff", "wake");
            assertThat(r.hops().list()).extracting(h -> h.from().name() + ">" + h.to().name()).containsExactly(
                    "known-path-caller>known-path-A", "known-path-A>known-path-B", "known-path-B>known-path-caller");
            assertThat(r.threads()).extracting(t -> t.thread().name())
                    .containsExactlyInAnyOrder("known-path-caller", "known-path-A", "known-path-B");
            assertThat(r.startThread().name()).isEqualTo("known-path-caller");
            assertThat(r.threads()).allSatisfy(t -> assertThat(t.thread().osId()).isPositive());
        }
    }

    @Test
    void allocationOnAIsAttributedToTheRequest() {
        for (Request r : report.requests()) {
            ThreadTime a = thread(r, "known-path-A");
            assertThat(a.allocatedBytes()).isGreaterThanOrEqualTo(KnownPathRecording.ALLOC_BYTES);
            assertThat(r.allocation().bytes()).isGreaterThanOrEqualTo(2L * KnownPathRecording.ALLOC_BYTES)
                    .isEqualTo(r.threads().stream().mapToLong(ThreadTime::allocatedBytes).sum());
        }
        assertThat(report.requests()).anySatisfy(r -> assertThat(r.allocation().sites())
                .anySatisfy(s -> assertThat(s.frame()).contains("KnownPathRecording")));
        assertThat(report.recording().requestsAllocatedBytes()).isGreaterThanOrEqualTo(6L * KnownPathRecording.ALLOC_BYTES);
        assertThat(report.recording().sampledAllocationBytesInRequests()).isPositive();
    }

    /**
     * Blind spots: A's bare park and B's monitor enter fall in their segments with no hop or wait to
     * explain them; the caller's park in {@code CompletableFuture.get}, which the JVM records too (as
     * long as B holds the request up), is its known wait's and is not shown.
     */
    @Test
    void whatNoHopOrWaitExplainsIsShownAndTheKnownWaitIsNot() throws Exception {
        long callerParks = jdk.jfr.consumer.RecordingFile.readAllEvents(recording).stream()
                .filter(e -> e.getEventType().getName().equals("jdk.ThreadPark") && e.getThread() != null
                        && "known-path-caller".equals(e.getThread().getJavaName()) && e.getDuration().toNanos() >= 25 * MS
                        && e.getClass("parkedClass") != null && e.getClass("parkedClass").getName().contains("CompletableFuture"))
                .count();
        assertThat(callerParks).isGreaterThanOrEqualTo(report.requests().size());
        for (Request r : report.requests()) {
            assertThat(r.unexplained().top()).noneSatisfy(s -> assertThat(s.blocker()).contains("CompletableFuture"));
            assertThat(r.unexplained().top()).anySatisfy(s -> {
                assertThat(s.kind()).isEqualTo("park");
                assertThat(s.blocker()).isEqualTo(KnownPathRecording.KnownParkBlocker.class.getName());
                assertThat(s.frame()).startsWith(KnownPathRecording.class.getName() + ".");
                assertThat(s.waker()).isNull();
            }).anySatisfy(s -> {
                assertThat(s.kind()).isEqualTo("monitorEnter");
                assertThat(s.blocker()).isEqualTo(KnownPathRecording.KnownLock.class.getName());
                assertThat(s.nanos()).isGreaterThanOrEqualTo(25 * MS);
                assertThat(s.waker().name()).isEqualTo("known-path-holder");
            });
            assertThat(r.unexplained().nanos()).isEqualTo(r.unexplained().top().stream().mapToLong(s -> s.nanos()).sum());
        }
        NameSummary s = report.summary().get(0);
        assertThat(s.unexplainedRequests()).isEqualTo(report.requests().size());
        assertThat(s.explainedShare()).isBetween(0.0, 1.0);
    }

    @Test
    void monitorContentionOnBIsAttributedToTheRequest() {
        for (Request r : report.requests()) {
            assertThat(r.lock().nanos()).isGreaterThanOrEqualTo(25 * MS);
            LockSite top = r.lock().top().get(0);
            assertThat(top.kind()).isEqualTo("monitor");
            assertThat(top.className()).isEqualTo(KnownPathRecording.KnownLock.class.getName());
            assertThat(top.nanos()).isGreaterThanOrEqualTo(25 * MS);
            assertThat(top.stack()).contains("KnownPathRecording");
            // A parks inside its segment: a park site, on top of the monitor.
            assertThat(r.lock().top()).anySatisfy(l -> {
                assertThat(l.kind()).isEqualTo("park");
                assertThat(l.className()).isEqualTo(KnownPathRecording.KnownParkBlocker.class.getName());
                assertThat(l.nanos()).isGreaterThanOrEqualTo(KnownPathRecording.PARK_MILLIS * MS / 2);
            });
            // The caller's park inside CompletableFuture.get is a wait, not lock contention.
            assertThat(r.lock().top()).noneSatisfy(l -> assertThat(l.className()).contains("CompletableFuture"));
            assertThat(r.waits().blockedNanos()).isGreaterThanOrEqualTo(25 * MS);
            assertThat(r.hops().wakeLatencyNanos()).isPositive();
        }
    }

    @Test
    void policySelfTimeExcludesChildren() {
        for (Request r : report.requests()) {
            PolicyTime outer = policy(r, "io.hopscope.test.OuterPolicy");
            PolicyTime inner = policy(r, "io.hopscope.test.InnerPolicy");
            assertThat(inner.selfNanos()).isEqualTo(inner.totalNanos()).isGreaterThanOrEqualTo(2 * MS);
            assertThat(outer.selfNanos()).isEqualTo(outer.totalNanos() - inner.totalNanos());
            assertThat(outer.selfNanos()).isGreaterThanOrEqualTo(MS).isLessThan(outer.totalNanos());
        }
    }

    @Test
    void summaryAndClock() {
        NameSummary s = report.summary().get(0);
        assertThat(s.name()).isEqualTo(KnownPathRecording.NAME);
        assertThat(s.count()).isEqualTo(3);
        assertThat(s.meanHops()).isEqualTo(3.0);
        assertThat(s.maxHops()).isEqualTo(3);
        assertThat(s.p50Nanos()).isLessThanOrEqualTo(s.p90Nanos()).isLessThanOrEqualTo(s.maxNanos());
        assertThat(s.maxNanos()).isGreaterThanOrEqualTo(25 * MS);
        assertThat(s.meanLockNanos()).isGreaterThanOrEqualTo(25 * MS);
        assertThat(s.throughputPerSecond()).isPositive();
        assertThat(report.recording().clockSyncCount()).isEqualTo(2);
        long expectedOffset = System.currentTimeMillis() * MS - System.nanoTime();
        assertThat(Math.abs(report.recording().clockOffsetNanos() - expectedOffset)).isLessThan(1_000 * MS);
        assertThat(report.recording().hasHopscopeEvents()).isTrue();
        assertThat(report.recording().warnings()).isEmpty();
    }

    @Test
    void nameGlobTopAndSortSelect() throws Exception {
        Report none = new RecordingAnalyzer(recording, new AnalysisOptions("GET *", -1, SortField.duration, 5, 1 << 20)).analyze();
        assertThat(none.requests()).isEmpty();
        assertThat(none.summary()).isEmpty();
        Report one = new RecordingAnalyzer(recording, new AnalysisOptions("*KnownPath#*", 1, SortField.start, 5, 1 << 20)).analyze();
        assertThat(one.requests()).hasSize(1);
        assertThat(one.requests().get(0).startEpochNanos())
                .isEqualTo(report.requests().stream().mapToLong(Request::startEpochNanos).min().orElseThrow());
        // Lists for none (--detail-memory 0): how many requests overlap in this recording depends on its
        // threads' timing, so a limit of 1 would drop 0 to 2 of them.
        Report noDetail = new RecordingAnalyzer(recording, new AnalysisOptions(null, -1, SortField.duration, 5, 0)).analyze();
        assertThat(noDetail.requests()).filteredOn(r -> !r.detailKept()).hasSize(3)
                .allSatisfy(r -> {
                    assertThat(r.hops().list()).isEmpty();
                    assertThat(r.hops().count()).isEqualTo(3);
                    assertThat(r.lock().nanos()).isGreaterThanOrEqualTo(25 * MS);
                });
        assertThat(noDetail.recording().warnings()).anySatisfy(w -> assertThat(w).contains("3 of the 3 requests shown have totals but no event lists"));
    }

    @Test
    void extraJoinsHandOverJdkEventsWithTheirRequest() throws Exception {
        java.util.Map<Long, Integer> samplesPerRequest = new java.util.TreeMap<>();
        java.util.List<String> framesInRequests = new java.util.ArrayList<>();
        new RecordingAnalyzer(recording, AnalysisOptions.all())
                .join("jdk.ObjectAllocationSample", (sample, id, name) -> {
                    samplesPerRequest.merge(id, 1, Integer::sum);
                    if (id == 0) {
                        assertThat(name).isNull();
                    } else {
                        assertThat(name).isEqualTo(KnownPathRecording.NAME);
                        List<String> frames = sample.framesRootFirst();
                        String leaf = frames.get(frames.size() - 1);
                        framesInRequests.add(leaf.substring(0, leaf.lastIndexOf('.')));
                    }
                })
                .analyze();
        assertThat(samplesPerRequest.keySet()).containsAll(report.requests().stream().map(Request::id).toList());
        assertThat(framesInRequests).contains(KnownPathRecording.class.getName());
    }

    static ThreadTime thread(Request r, String name) {
        List<ThreadTime> match = r.threads().stream().filter(t -> name.equals(t.thread().name())).toList();
        assertThat(match).hasSize(1);
        return match.get(0);
    }

    static PolicyTime policy(Request r, String name) {
        return r.spans().policies().stream().filter(p -> name.equals(p.name())).findFirst().orElseThrow();
    }
}
