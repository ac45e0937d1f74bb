package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.testing.ContractEvents;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single pass finishes a request two flush points after its hopscope.Request event; an event of
 * it that the file gives later still must be counted and warned about, neither silently added to a
 * request already summarised nor reported as a request that never ended. The flush points are made
 * deterministic by rotating chunks (starting and stopping another recording ends the current chunk,
 * and the file stream calls its flush action at each chunk end). The periodic flush (every second)
 * could add one flush point in between: the late event would then still be within the two intervals
 * the analyzer remembers finished ids for.
 */
class LateEventTest {

    static final String POLICY = "com.example.LatePolicy";

    @TempDir
    static Path dir;
    static Report report;
    static Map<Long, Request> byId;

    @BeforeAll
    static void record() throws Exception {
        Path jfr = dir.resolve("late.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(ContractEvents.Request.class);
            recording.enable(ContractEvents.Segment.class);
            recording.enable(ContractEvents.Span.class);
            recording.start();
            span(1, 11);  // on time: before its request's end
            request(1);
            request(2);
            rotate(); // flush points 1 and 2: requests 1 and 2 are finished at the second
            span(2, 21); // late: its request was finished at the flush point just read
            request(3);
            span(3, 31); // a request's own span after its end, within the lag: kept
            rotate();
            rotate();
            recording.stop();
            recording.dump(jfr);
        }
        report = new RecordingAnalyzer(jfr, AnalysisOptions.all()).analyze();
        byId = report.requests().stream().collect(Collectors.toMap(Request::id, Function.identity()));
    }

    @Test
    void theLateEventIsCountedAndWarnedAbout() {
        assertThat(report.recording().warnings()).filteredOn(w -> w.contains("late") || w.contains("after their request"))
                .singleElement().asString()
                .contains("1 hopscope event(s) came in the file more than a flush interval after their request had ended");
    }

    @Test
    void itIsLeftOutOfItsRequestWhichIsNotReportedAsUnfinished() {
        assertThat(byId).containsOnlyKeys(1L, 2L, 3L);
        assertThat(report.recording().incompleteRequests()).isZero();
        assertThat(report.recording().warnings()).noneMatch(w -> w.contains("without a hopscope.Request event"));
        assertThat(byId.get(2L).policies()).isEmpty();
        assertThat(byId.get(2L).spans()).isEmpty();
    }

    @Test
    void eventsWithinTheLagStayWithTheirRequests() {
        assertThat(byId.get(1L).spans()).hasSize(1);
        assertThat(byId.get(3L).spans()).hasSize(1);
        assertThat(byId.get(3L).policies()).singleElement().satisfies(p -> assertThat(p.name()).isEqualTo(POLICY));
    }

    private static void request(long id) {
        ContractEvents.instantSegment(id, "request", 100);
        ContractEvents.Request r = new ContractEvents.Request();
        r.begin();
        r.requestId = id;
        r.name = "GET /late";
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

    // Starting a recording ends the current chunk of every running one, and stopping it again.
    private static void rotate() {
        try (Recording other = new Recording()) {
            other.start();
            other.stop();
        }
    }
}
