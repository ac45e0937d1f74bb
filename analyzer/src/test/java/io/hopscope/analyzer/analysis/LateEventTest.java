package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.hopscope.analyzer.model.LateEvents;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.testing.ContractEvents;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single pass finishes a request two flush points after its hopscope.Request event; an event of
 * it that the file gives later, however late, must be added to it and to its name's summary, and never
 * reported as a request that never ended. The flush points are made deterministic by rotating chunks
 * (starting and stopping another recording ends the current chunk, and the file stream calls its
 * flush action at each chunk end): the late events here come six and twelve flush points after their
 * request's end, past the two intervals the analyzer used to remember finished ids for. The periodic
 * flush (every second) can only add flush points, making them later still.
 */
class LateEventTest {

    static final String POLICY = "com.example.LatePolicy";
    static final String NAME = "GET /late";

    @TempDir
    static Path dir;
    static Path jfr;
    // Request 1's and request 2's blocked time: the Wait events' durations, as the file has them.
    static long blocked1;
    static long blocked2;

    @BeforeAll
    static void record() throws Exception {
        jfr = dir.resolve("late.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(ContractEvents.Request.class);
            recording.enable(ContractEvents.Segment.class);
            recording.enable(ContractEvents.Span.class);
            recording.enable(ContractEvents.Hop.class);
            recording.enable(ContractEvents.Wait.class);
            recording.start();
            span(1, 11); // on time: before its request's end
            request(1);
            hop(2, "handoff", 2_000);
            wait(2, false);
            request(2);
            rotate(6); // requests 1 and 2 are finished at the second of these flush points
            hop(1, "handoff", 3_000);
            hop(1, "wake", 500);
            hop(1, "return", 700);
            wait(1, true);
            span(1, 12);
            Thread other = new Thread(() -> ContractEvents.instantSegment(1, "task", 300), "late-worker");
            other.start();
            other.join();
            hop(3, "handoff", 10);
            hop(3, "handoff", 20);
            request(3);
            span(3, 31); // a request's own span after its end, within the lag
            rotate(6);
            ContractEvents.instantSegment(2, "task", 50);
            rotate(2);
            recording.stop();
            recording.dump(jfr);
        }
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals("hopscope.Wait")) {
                long nanos = e.getDuration().toNanos();
                if (e.getLong("requestId") == 1) {
                    blocked1 += nanos;
                } else {
                    blocked2 += nanos;
                }
            }
        }
    }

    static Report analyze(AnalysisOptions options) throws Exception {
        return new RecordingAnalyzer(jfr, options).analyze();
    }

    static Map<Long, Request> byId(Report report) {
        return report.requests().stream().collect(Collectors.toMap(Request::id, Function.identity()));
    }

    @Test
    void lateEventsAreAddedToTheirRequestHoweverLate() throws Exception {
        Request r = byId(analyze(AnalysisOptions.all())).get(1L);
        assertThat(r.hops().count()).isEqualTo(3);
        assertThat(r.hops().handoffs()).isEqualTo(1);
        assertThat(r.hops().wakes()).isEqualTo(1);
        assertThat(r.hops().returns()).isEqualTo(1);
        assertThat(r.hops().queueDelayNanos()).isEqualTo(3_000);
        assertThat(r.hops().wakeLatencyNanos()).isEqualTo(500);
        assertThat(r.hops().returnDelayNanos()).isEqualTo(700);
        assertThat(r.hops().list()).hasSize(3);
        assertThat(r.waits().blockedNanos()).isEqualTo(blocked1);
        assertThat(r.waits().onNonBlockingThread()).isTrue();
        assertThat(r.waits().list()).hasSize(1);
        assertThat(r.allocation().bytes()).isEqualTo(100 + 300);
        assertThat(r.threads()).extracting(t -> t.thread().name()).containsExactlyInAnyOrder("main", "late-worker");
        assertThat(r.segments()).hasSize(2);
        assertThat(r.spans().list()).hasSize(2);
        assertThat(r.spans().policies()).singleElement().satisfies(p -> {
            assertThat(p.name()).isEqualTo(POLICY);
            assertThat(p.count()).isEqualTo(2);
        });
    }

    @Test
    void andToTheirNamesSummaryWhetherTheRequestIsHeldOrNot() throws Exception {
        // Every request held (top all), and none (top 0: the summary is amended without the request).
        for (AnalysisOptions options : List.of(AnalysisOptions.all(),
                new AnalysisOptions(null, 0, SortField.duration, 5, AnalysisOptions.defaultDetailBytes()))) {
            Report report = analyze(options);
            NameSummary s = report.summary().stream().filter(n -> n.name().equals(NAME)).findFirst().orElseThrow();
            assertThat(s.count()).isEqualTo(2);
            assertThat(s.meanHops()).isEqualTo((3 + 1) / 2.0);
            assertThat(s.maxHops()).isEqualTo(3);
            assertThat(s.meanHandoffHops()).isEqualTo(1);
            assertThat(s.meanWakeHops()).isEqualTo(0.5);
            assertThat(s.meanReturnHops()).isEqualTo(0.5);
            assertThat(s.meanQueueDelayNanos()).isEqualTo((3_000 + 2_000) / 2.0);
            assertThat(s.meanWakeLatencyNanos()).isEqualTo(250);
            assertThat(s.meanReturnDelayNanos()).isEqualTo(350);
            assertThat(s.meanAllocatedBytes()).isEqualTo((400 + 150) / 2.0);
            assertThat(s.meanBlockedNanos()).isEqualTo((blocked1 + blocked2) / 2.0);
            assertThat(s.nonBlockingShare()).isEqualTo(0.5);
            assertThat(report.recording().requestsAllocatedBytes()).isEqualTo(400 + 150 + 100); // and request 3's
            assertThat(report.recording().lateEvents()).isEqualTo(new LateEvents(7, 0, 0));
        }
    }

    @Test
    void noLateEventMakesARequestThatNeverEnded() throws Exception {
        Report report = analyze(AnalysisOptions.all());
        assertThat(byId(report)).containsOnlyKeys(1L, 2L, 3L);
        assertThat(report.summary()).extracting(NameSummary::name, NameSummary::count)
                .containsExactly(tuple(NAME, 2L), tuple("GET /other", 1L));
        assertThat(report.recording().incompleteRequests()).isZero();
        assertThat(report.recording().warnings()).noneMatch(w -> w.contains("without a hopscope.Request event"));
        assertThat(report.recording().warnings()).filteredOn(w -> w.contains("after their request was finished"))
                .singleElement().asString().endsWith(": 7 hopscope event(s) came in the file after their request was finished"
                        + " (two flush points after its end): added to it and its name's summary");
    }

    @Test
    void aHeldRequestTakesItsNewPlaceInTheTopN() throws Exception {
        // The top 2 by hops holds requests 1 (no hop at its end, so the first to go) and 2 (1 hop); request
        // 1's late hops make it 3, so request 3 (2 hops) finishing after them must push out request 2.
        Report report = analyze(new AnalysisOptions(null, 2, SortField.hops, 5, AnalysisOptions.defaultDetailBytes()));
        assertThat(report.requests()).extracting(Request::id).containsExactly(1L, 3L);
        assertThat(report.requests().get(0).hops().count()).isEqualTo(3);
    }

    @Test
    void eventsWithinTheLagStayWithTheirRequests() throws Exception {
        Request r = byId(analyze(AnalysisOptions.all())).get(3L);
        assertThat(r.spans().list()).hasSize(1);
        assertThat(r.spans().policies()).singleElement().satisfies(p -> assertThat(p.name()).isEqualTo(POLICY));
    }

    @Test
    void aRequestAlreadySpilledGetsItInItsSummaryOnlyAndTheReportSaysSo() throws Exception {
        // Past 20,000 requests --top all writes them to a temporary file, with the totals they had.
        Path spilled = dir.resolve("spilled.jfr");
        int requests = 20_100;
        try (Recording recording = new Recording()) {
            recording.enable(ContractEvents.Request.class);
            recording.enable(ContractEvents.Segment.class);
            recording.enable(ContractEvents.Hop.class);
            recording.start();
            for (long id = 1; id <= requests; id++) {
                request(id);
            }
            rotate(4);
            hop(1, "handoff", 1_000);
            rotate(2);
            recording.stop();
            recording.dump(spilled);
        }
        Report report = new RecordingAnalyzer(spilled, AnalysisOptions.all()).analyze();
        assertThat(report.recording().lateEvents()).isEqualTo(new LateEvents(1, 1, 0));
        assertThat(report.requests()).hasSize(requests);
        NameSummary s = report.summary().stream().filter(n -> n.name().equals(NAME)).findFirst().orElseThrow();
        assertThat(s.meanHops()).isEqualTo(1.0 / (requests - 1)); // request 3 is named "GET /other"
        assertThat(s.meanQueueDelayNanos()).isEqualTo(1_000.0 / (requests - 1));
        assertThat(report.recording().warnings()).anyMatch(w -> w.endsWith(
                ", 1 of them to the summary only (their request was already written out)"));
    }

    private static void request(long id) {
        ContractEvents.instantSegment(id, "request", 100);
        ContractEvents.Request r = new ContractEvents.Request();
        r.begin();
        r.requestId = id;
        r.name = id == 3 ? "GET /other" : NAME;
        r.outcome = "ok";
        r.statusCode = 200;
        r.startThread = Thread.currentThread();
        r.commit();
    }

    private static void span(long requestId, long spanId) {
        ContractEvents.Span s = new ContractEvents.Span();
        s.begin();
        s.requestId = requestId;
        s.spanId = spanId;
        s.kind = "policy";
        s.name = POLICY;
        s.mode = "sync";
        s.commit();
    }

    private static void hop(long requestId, String kind, long delayNanos) {
        ContractEvents.Hop h = new ContractEvents.Hop();
        h.requestId = requestId;
        h.kind = kind;
        h.fromThread = Thread.currentThread();
        h.toThread = Thread.currentThread();
        h.delayNanos = delayNanos;
        h.via = "test";
        h.commit();
    }

    private static void wait(long requestId, boolean nonBlockingThread) {
        ContractEvents.Wait w = new ContractEvents.Wait();
        w.begin();
        w.requestId = requestId;
        w.kind = "park";
        w.wakeLatencyNanos = -1;
        w.nonBlockingThread = nonBlockingThread;
        w.outcome = "ok";
        w.commit();
    }

    // Starting a recording ends the current chunk of every running one, and stopping it again.
    private static void rotate(int times) {
        for (int i = 0; i < times; i++) {
            try (Recording other = new Recording()) {
                other.start();
                other.stop();
            }
        }
    }
}
