package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.memory.DetailBudget;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.testing.ContractEvents;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code --top N} sorted by duration or start, a request that ends already worse placed than the
 * N-th finished one drops its event lists at once; the requests that are shown must still come out
 * exactly as when every request is kept. Chunk rotations put flush points between the requests, so
 * that most of them end after others were finished (without flush points nothing is finished before
 * the end of the file, and nothing would be dropped).
 */
class DetailDropTest {

    static final int REQUESTS = 40;

    @TempDir
    static Path dir;
    static Path jfr;
    static List<Request> all;

    @BeforeAll
    static void record() throws Exception {
        jfr = dir.resolve("drops.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(ContractEvents.Request.class);
            recording.enable(ContractEvents.Segment.class);
            recording.enable(ContractEvents.Span.class);
            recording.enable(ContractEvents.Hop.class);
            recording.start();
            for (int id = 1; id <= REQUESTS; id++) {
                // durations in a scrambled order: 0.2 to 2.2 ms
                request(id, 200_000L + (id * 7919L % REQUESTS) * 50_000L);
                if (id % 4 == 0) {
                    try (Recording other = new Recording()) { // two chunk ends: two flush points
                        other.start();
                        other.stop();
                    }
                }
            }
            recording.stop();
            recording.dump(jfr);
        }
        all = new ArrayList<>(new RecordingAnalyzer(jfr, AnalysisOptions.all()).analyze().requests());
        assertThat(all).hasSize(REQUESTS).allSatisfy(r -> {
            assertThat(r.segments()).hasSize(2);
            assertThat(r.spans().list()).hasSize(1);
            assertThat(r.hops().list()).hasSize(1);
        });
    }

    @Test
    void theWorstByDurationComeOutAsWhenAllAreKept() throws Exception {
        assertSameAsAll(SortField.duration, 3);
    }

    @Test
    void theEarliestComeOutAsWhenAllAreKept() throws Exception {
        assertSameAsAll(SortField.start, 5);
    }

    @Test
    void topZeroKeepsTheTotals() throws Exception {
        Report none = new RecordingAnalyzer(jfr, new AnalysisOptions(null, 0, SortField.duration, 5,
                AnalysisOptions.defaultDetailBytes())).analyze();
        Report every = new RecordingAnalyzer(jfr, AnalysisOptions.all()).analyze();
        assertThat(none.requests()).isEmpty();
        assertThat(none.summary()).isEqualTo(every.summary());
        assertThat(none.recording().warnings()).isEqualTo(every.recording().warnings());
    }

    @Test
    void finishedRequestsGoToTheSpillFileWhenTheirListsFillTheBudget() throws Exception {
        // A request's lists here: 4 empty lists, 2 segments, a hop, a span. One request at a time, and
        // a few ended ones wait between flush points for their stragglers: 16 requests' worth is room
        // enough, but not for all 40 kept for the output, which go to the file once the budget is spent.
        long oneRequest = DetailBudget.LISTS_BYTES + 2 * DetailBudget.SEGMENT_BYTES + DetailBudget.HOP_BYTES
                + DetailBudget.SPAN_BYTES;
        assertThat(REQUESTS * oneRequest).isGreaterThan(16 * oneRequest);
        Report r = new RecordingAnalyzer(jfr, new AnalysisOptions(null, -1, SortField.start, 5, 16 * oneRequest)).analyze();
        assertThat(r.requests()).hasSize(REQUESTS).allSatisfy(q -> assertThat(q.detailKept()).isTrue());
        assertThat(r.recording().warnings()).isEmpty();
        assertThat(r.requests()).containsExactlyElementsOf(
                all.stream().sorted(Comparator.comparingLong(Request::startEpochNanos)).toList());
    }

    @Test
    void endedRequestsBeyondTheWaitingLimitAreFinishedEarlyAndComeOutTheSame() throws Exception {
        // A file whose flush intervals hold more ended requests than may wait for stragglers: the
        // earliest ended go on at once. Whether one of this recording's events lands after its
        // request's end in the file depends on when JFR wrote its buffers; such a straggler is added
        // to its finished request after the fact (FinishedRequests), so every request comes out whole.
        Report r = new RecordingAnalyzer(jfr, AnalysisOptions.all()).maxWaiting(1).analyze();
        assertThat(r.requests()).containsExactlyInAnyOrderElementsOf(all);
        assertThat(r.summary()).singleElement().satisfies(s -> assertThat(s.count()).isEqualTo(REQUESTS));
        String early = java.util.regex.Pattern.quote(jfr.toString()) + ": [1-9][0-9]* request\\(s\\) were finished"
                + " before the file's next two flush points, to keep at most 1 ended requests in memory \\(its flush"
                + " intervals hold more\\): an event of theirs written after that is added after the fact, a JDK event"
                + " in their segments is left out";
        assertThat(r.recording().warnings()).anySatisfy(w -> assertThat(w).matches(early))
                .allSatisfy(w -> assertThat(w).matches(early + "|.*hopscope event\\(s\\) came in the file after their"
                        + " request was finished \\(two flush points after its end\\): added to it and its name's summary"));
    }

    @Test
    void aRequestWhoseListsOutgrowTheBudgetDropsThemAndGivesTheBytesBack() throws Exception {
        // The first request has 20 segments, the budget room for 10: it drops its lists at the 11th,
        // keeping its totals, and the second request, later, gets its lists again.
        Path growing = dir.resolve("growing.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(ContractEvents.Request.class);
            recording.enable(ContractEvents.Segment.class);
            recording.start();
            for (int i = 0; i < 20; i++) {
                segment(2001);
            }
            end(2001, "GET /big");
            segment(2002);
            segment(2002);
            end(2002, "GET /small");
            recording.stop();
            recording.dump(growing);
        }
        long budget = DetailBudget.LISTS_BYTES + 10 * DetailBudget.SEGMENT_BYTES;
        Report r = new RecordingAnalyzer(growing, new AnalysisOptions(null, -1, SortField.start, 5, budget)).analyze();
        assertThat(r.requests()).extracting(Request::id).containsExactly(2001L, 2002L);
        Request big = r.requests().get(0);
        assertThat(big.detailKept()).isFalse();
        assertThat(big.segments()).isEmpty();
        assertThat(big.threads()).singleElement().satisfies(t -> assertThat(t.segments()).isEqualTo(20));
        assertThat(r.requests().get(1).detailKept()).isTrue();
        assertThat(r.requests().get(1).segments()).hasSize(2);
        assertThat(r.recording().warnings()).containsExactly(growing + ": 1 of the 2 requests shown have totals but no"
                + " event lists (hops, segments, waits, spans): up to 1 requests were in flight at once, and their lists"
                + " are kept within 836 B (--detail-memory)");
    }

    @Test
    void aShownRequestWithoutItsListsIsWarnedAboutAndOneNotShownIsNot() throws Exception {
        // Ten requests in flight at once, a segment each, and room for the lists of three.
        Path overlapping = dir.resolve("overlapping.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(ContractEvents.Request.class);
            recording.enable(ContractEvents.Segment.class);
            recording.start();
            // JFR writes a chunk's events in buffer order, not always in commit order (hence
            // EventStream's ordered mode; a clean-clone run read 1001, 1009, 1010 first): starting a
            // recording ends the chunk, so each segment gets one of its own, in order, and every
            // segment comes before every request's end in the file, whatever the buffers did.
            for (int id = 1001; id <= 1010; id++) {
                segment(id);
                try (Recording rotate = new Recording()) {
                    rotate.start();
                }
            }
            for (int id = 1001; id <= 1010; id++) {
                end(id, "GET /overlap");
            }
            recording.stop();
            recording.dump(overlapping);
        }
        long three = 3 * (DetailBudget.LISTS_BYTES + DetailBudget.SEGMENT_BYTES);
        assertThat(three).isEqualTo(780);
        Report all = new RecordingAnalyzer(overlapping, new AnalysisOptions(null, -1, SortField.start, 5, three)).analyze();
        assertThat(all.requests()).hasSize(10).filteredOn(q -> !q.detailKept()).hasSize(7);
        assertThat(all.requests()).filteredOn(Request::detailKept).extracting(Request::id).containsExactly(1001L, 1002L, 1003L);
        assertThat(all.recording().warnings()).containsExactly(overlapping + ": 7 of the 10 requests shown have totals but no event"
                + " lists (hops, segments, waits, spans): up to 10 requests were in flight at once, and their lists are kept"
                + " within 780 B (--detail-memory)");
        // The three shown are the first three, which kept their lists: nothing the user asked for is cut.
        Report first = new RecordingAnalyzer(overlapping, new AnalysisOptions(null, 3, SortField.start, 5, three)).analyze();
        assertThat(first.requests()).hasSize(3).allSatisfy(q -> assertThat(q.detailKept()).isTrue());
        assertThat(first.recording().warnings()).isEmpty();
    }

    private static void assertSameAsAll(SortField sort, int top) throws Exception {
        Report shown = new RecordingAnalyzer(jfr, new AnalysisOptions(null, top, sort, 5,
                AnalysisOptions.defaultDetailBytes())).analyze();
        Comparator<Request> order = sort == SortField.start ? Comparator.comparingLong(Request::startEpochNanos)
                : Comparator.comparingLong(Request::durationNanos).reversed();
        List<Request> expected = all.stream().sorted(order.thenComparingLong(Request::id)).limit(top).toList();
        assertThat(shown.requests()).containsExactlyElementsOf(expected);
        assertThat(shown.requests()).allSatisfy(r -> assertThat(r.segments()).hasSize(2));
    }

    private static void request(long id, long durationNanos) {
        ContractEvents.Request r = new ContractEvents.Request();
        r.begin();
        long t0 = System.nanoTime();
        segment(id);
        ContractEvents.Hop h = new ContractEvents.Hop();
        h.requestId = id;
        h.kind = "handoff";
        h.fromThread = Thread.currentThread();
        h.toThread = Thread.currentThread();
        h.delayNanos = 1_000;
        h.commit();
        ContractEvents.Span s = new ContractEvents.Span();
        s.begin();
        s.requestId = id;
        s.spanId = id * 10;
        s.kind = "policy";
        s.name = "com.example.Policy";
        s.mode = "sync";
        s.commit();
        while (System.nanoTime() - t0 < durationNanos) {
            LockSupport.parkNanos(50_000);
        }
        segment(id);
        r.requestId = id;
        r.name = "GET /drops";
        r.outcome = "ok";
        r.statusCode = 200;
        r.startThread = Thread.currentThread();
        r.commit();
    }

    private static void end(long id, String name) {
        ContractEvents.Request end = new ContractEvents.Request();
        end.begin();
        end.requestId = id;
        end.name = name;
        end.outcome = "ok";
        end.commit();
    }

    private static void segment(long id) {
        ContractEvents.instantSegment(id, "run", 64);
    }
}
