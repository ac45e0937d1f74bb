package io.hopscope.analyzer.analysis;

import static io.hopscope.analyzer.testing.ServerRequestRecording.CALL;
import static io.hopscope.analyzer.testing.ServerRequestRecording.CLIENT;
import static io.hopscope.analyzer.testing.ServerRequestRecording.EXEC;
import static io.hopscope.analyzer.testing.ServerRequestRecording.HANDLER;
import static io.hopscope.analyzer.testing.ServerRequestRecording.HANDLER_QUEUE_NANOS;
import static io.hopscope.analyzer.testing.ServerRequestRecording.POLLER;
import static io.hopscope.analyzer.testing.ServerRequestRecording.ROUTE;
import static io.hopscope.analyzer.testing.ServerRequestRecording.SERVER_QUEUE_NANOS;
import static io.hopscope.analyzer.testing.ServerRequestRecording.SERVER_VIA;
import static io.hopscope.analyzer.testing.ServerRequestRecording.WAKE_NANOS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.RequestKinds;
import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.model.ServerQueue;
import io.hopscope.analyzer.model.ServerQueueSummary;
import io.hopscope.analyzer.testing.ContractEvents;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.ServerRequestRecording;
import io.hopscope.analyzer.testing.SpacedRecording;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inbound (server) requests as the single pass reads them: the request's kind, its server's hand-over
 * counted as its server queue and in none of its hop figures, its outbound calls; the same per name;
 * and what windows, late events and recordings from before the fields make of them.
 */
class ServerRequestsTest {

    @TempDir
    static Path dir;
    static Path jfr;

    @BeforeAll
    static void record() throws Exception {
        jfr = dir.resolve("server.jfr");
        ServerRequestRecording.write(jfr, SERVER_QUEUE_NANOS);
    }

    private static Map<Long, Request> byId(Report report) {
        return report.requests().stream().collect(Collectors.toMap(Request::id, Function.identity()));
    }

    private static NameSummary summary(Report report, String name) {
        return report.summary().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    /** What HdrHistogram (3 significant digits) gives as the p99 of values whose top one is {@code nanos}. */
    static long p99Of(long nanos) {
        return new Histogram(3).highestEquivalentValue(nanos);
    }

    @Test
    void theServersHandOverIsTheServerQueueAndNoneOfTheRequestsHops() throws Exception {
        Request r = byId(new RecordingAnalyzer(jfr, AnalysisOptions.all()).analyze()).get(1L);
        assertThat(r.kind()).isEqualTo("server");
        assertThat(r.server()).isTrue();
        assertThat(r.serverQueue()).isEqualTo(new ServerQueue(1, SERVER_QUEUE_NANOS));
        // The application's own: the handler pool's handoff and the wake back.
        assertThat(r.hops().count()).isEqualTo(2);
        assertThat(r.hops().handoffs()).isEqualTo(1);
        assertThat(r.hops().wakes()).isEqualTo(1);
        assertThat(r.hops().queueDelayNanos()).isEqualTo(HANDLER_QUEUE_NANOS);
        assertThat(r.hops().wakeLatencyNanos()).isEqualTo(WAKE_NANOS);
        // The hand-over is listed, first, marked; its thread ran no segment of the request.
        assertThat(r.hops().list()).extracting(Hop::kind, h -> h.from().name(), h -> h.to().name(), Hop::delayNanos,
                Hop::serverQueue).containsExactly(
                        tuple("handoff", POLLER, EXEC, SERVER_QUEUE_NANOS, true),
                        tuple("handoff", EXEC, HANDLER, HANDLER_QUEUE_NANOS, false),
                        tuple("wake", HANDLER, EXEC, WAKE_NANOS, false));
        assertThat(r.hops().list().get(0).via()).isEqualTo(SERVER_VIA);
        assertThat(r.hops().list().get(0).departureEpochNanos()).isGreaterThanOrEqualTo(r.startEpochNanos());
        assertThat(r.threads()).extracting(t -> t.thread().name()).containsExactlyInAnyOrder(EXEC, HANDLER);
        assertThat(r.startThread().name()).isEqualTo(EXEC);
    }

    @Test
    void itsOutboundCallsAreItsBoundarySpansWithTheirTimes() throws Exception {
        Request r = byId(new RecordingAnalyzer(jfr, AnalysisOptions.all()).analyze()).get(1L);
        List<Long> calls = ServerRequestRecording.callNanos(jfr);
        assertThat(calls).hasSize(2);
        long total = calls.get(0) + calls.get(1);
        assertThat(r.spans().calls()).containsExactly(new PolicyTime(CALL, "boundary", 2, total, total));
        assertThat(r.spans().list()).extracting(s -> s.thread().name()).containsOnly(HANDLER);
    }

    @Test
    void otherRequestsHaveTheirKindAndNoServerQueue() throws Exception {
        Map<Long, Request> requests = byId(new RecordingAnalyzer(jfr, AnalysisOptions.all()).analyze());
        assertThat(requests.get(2L).kind()).isEqualTo("server");
        assertThat(requests.get(2L).serverQueue()).isSameAs(ServerQueue.NONE);
        assertThat(requests.get(3L).kind()).isEqualTo("client");
        assertThat(requests.get(3L).server()).isFalse();
        assertThat(requests.get(3L).serverQueue()).isSameAs(ServerQueue.NONE);
        assertThat(requests.get(3L).spans().calls()).isEmpty();
    }

    @Test
    void perNameTheServerQueueIsOverEveryRequestAndApartFromTheQueueDelay() throws Exception {
        Report report = new RecordingAnalyzer(jfr, AnalysisOptions.all()).analyze();
        NameSummary route = summary(report, ROUTE);
        assertThat(route.kinds()).isEqualTo(new RequestKinds(2, 0, 0));
        assertThat(route.server()).isTrue();
        // Request 1 queued 2.5 ms, request 2 was not handed over: 0.
        assertThat(route.serverQueue()).isEqualTo(new ServerQueueSummary(1, SERVER_QUEUE_NANOS / 2.0,
                p99Of(SERVER_QUEUE_NANOS)));
        assertThat(route.meanQueueDelayNanos()).isEqualTo(HANDLER_QUEUE_NANOS / 2.0);
        assertThat(route.meanHops()).isEqualTo(1.0);
        assertThat(route.meanHandoffHops()).isEqualTo(0.5);
        NameSummary client = summary(report, CLIENT);
        assertThat(client.kinds()).isEqualTo(new RequestKinds(0, 1, 0));
        assertThat(client.server()).isFalse();
        assertThat(client.serverQueue()).isSameAs(ServerQueueSummary.NONE);
        assertThat(report.kinds()).isEqualTo(new RequestKinds(2, 1, 0));
    }

    @Test
    void aWindowCountsTheServerQueueOfTheRequestsThatStartedInItOnly() throws Exception {
        List<Long> starts = SpacedRecording.starts(jfr);
        RequestWindow fromSecond = new RequestWindow("--from", 0, starts.get(1), Long.MAX_VALUE, 0, 0);
        NameSummary later = summary(new RecordingAnalyzer(jfr, AnalysisOptions.all().within(fromSecond)).analyze(), ROUTE);
        assertThat(later.count()).isEqualTo(1);
        assertThat(later.kinds()).isEqualTo(new RequestKinds(1, 0, 0));
        assertThat(later.serverQueue()).isEqualTo(new ServerQueueSummary(0, 0, 0));
        RequestWindow firstOnly = new RequestWindow("--to", 0, Long.MIN_VALUE, starts.get(1), 0, 0);
        NameSummary first = summary(new RecordingAnalyzer(jfr, AnalysisOptions.all().within(firstOnly)).analyze(), ROUTE);
        assertThat(first.serverQueue()).isEqualTo(new ServerQueueSummary(1, SERVER_QUEUE_NANOS, p99Of(SERVER_QUEUE_NANOS)));
    }

    @Test
    void aLateHandOverAddsToItsRequestAndToTheNamesMeanCountingEachRequestQueuedOnce() throws Exception {
        Path late = dir.resolve("late-server.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(ContractEvents.Request.class);
            recording.enable(ContractEvents.Segment.class);
            recording.enable(ContractEvents.Hop.class);
            recording.start();
            handOver(10, 1_000);
            request(10);
            request(11);
            rotate(6); // both finished at the second of these flush points
            handOver(10, 500); // a second hand-over of a request already queued
            handOver(11, 2_000); // the first of one that was not
            rotate(2);
            recording.stop();
            recording.dump(late);
        }
        // Every request held (top all), and none (top 0: the summary amended without the request).
        for (AnalysisOptions options : List.of(AnalysisOptions.all(),
                new AnalysisOptions(null, 0, SortField.duration, 5, AnalysisOptions.defaultDetailBytes()))) {
            Report report = new RecordingAnalyzer(late, options).analyze();
            NameSummary s = summary(report, "GET /late/{id}");
            // The p99 holds each request's time at its finish (1000 and 0), as the latency histogram its duration.
            assertThat(s.serverQueue()).isEqualTo(new ServerQueueSummary(2, (1_000 + 500 + 2_000) / 2.0, 1_000));
            assertThat(s.meanHops()).isZero();
            assertThat(s.meanQueueDelayNanos()).isZero();
            assertThat(report.recording().lateEvents().count()).isEqualTo(2);
        }
        Map<Long, Request> held = byId(new RecordingAnalyzer(late, AnalysisOptions.all()).analyze());
        assertThat(held.get(10L).serverQueue()).isEqualTo(new ServerQueue(2, 1_500));
        assertThat(held.get(11L).serverQueue()).isEqualTo(new ServerQueue(1, 2_000));
        assertThat(held.get(11L).hops().count()).isZero();
    }

    @Test
    void aRecordingFromBeforeTheFieldsHasRequestsOfNoKindAndNoServerQueue() throws Exception {
        // Written by KnownPathRecording before hopscope.Request had a kind and hopscope.Hop a serverQueue.
        Path old = Paths.moduleDir().resolve("src/test/resources/fuzz/known-path.jfr");
        Report report = new RecordingAnalyzer(old, AnalysisOptions.all()).analyze();
        assertThat(report.requests()).hasSize(3).allSatisfy(r -> {
            assertThat(r.kind()).isNull();
            assertThat(r.serverQueue()).isSameAs(ServerQueue.NONE);
            assertThat(r.hops().count()).isEqualTo(3);
            assertThat(r.hops().list()).noneMatch(Hop::serverQueue);
        });
        assertThat(report.summary()).singleElement().satisfies(s -> {
            assertThat(s.kinds()).isEqualTo(RequestKinds.NONE);
            assertThat(s.serverQueue()).isSameAs(ServerQueueSummary.NONE);
            assertThat(s.server()).isFalse();
        });
    }

    private static void handOver(long id, long delayNanos) {
        ContractEvents.Hop h = new ContractEvents.Hop();
        h.requestId = id;
        h.kind = "handoff";
        h.fromThread = Thread.currentThread();
        h.toThread = Thread.currentThread();
        h.delayNanos = delayNanos;
        h.via = "tomcat.Poller"; // under 16 characters: JFR pools no such string (see ServerRequestRecording)
        h.serverQueue = true;
        h.commit();
    }

    private static void request(long id) {
        ContractEvents.instantSegment(id, "start", 100);
        ContractEvents.Request r = new ContractEvents.Request();
        r.begin();
        r.requestId = id;
        r.name = "GET /late/{id}";
        r.kind = "server";
        r.outcome = "ok";
        r.statusCode = 200;
        r.commit();
    }

    // Starting a recording ends the current chunk of every running one, and stopping it again: a flush point each.
    private static void rotate(int times) {
        for (int i = 0; i < times; i++) {
            try (Recording other = new Recording()) {
                other.start();
                other.stop();
            }
        }
    }
}
