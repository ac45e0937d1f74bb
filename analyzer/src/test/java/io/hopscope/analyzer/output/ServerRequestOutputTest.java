package io.hopscope.analyzer.output;

import static io.hopscope.analyzer.testing.ServerRequestRecording.CALL;
import static io.hopscope.analyzer.testing.ServerRequestRecording.CLIENT;
import static io.hopscope.analyzer.testing.ServerRequestRecording.EXEC;
import static io.hopscope.analyzer.testing.ServerRequestRecording.HANDLER;
import static io.hopscope.analyzer.testing.ServerRequestRecording.HANDLER_QUEUE_NANOS;
import static io.hopscope.analyzer.testing.ServerRequestRecording.HANDLER_VIA;
import static io.hopscope.analyzer.testing.ServerRequestRecording.POLLER;
import static io.hopscope.analyzer.testing.ServerRequestRecording.ROUTE;
import static io.hopscope.analyzer.testing.ServerRequestRecording.SERVER_QUEUE_NANOS;
import static io.hopscope.analyzer.testing.ServerRequestRecording.SERVER_VIA;
import static io.hopscope.analyzer.testing.ServerRequestRecording.WAKE_NANOS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.ServerRequestRecording;
import io.hopscope.analyzer.testing.TraceSchema;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server requests in {@code report} (text, JSON, HTML), {@code diff} and {@code trace}, from recordings of
 * {@link ServerRequestRecording} (the server queue 2.5 ms in A, 5 ms in B): every figure the recording
 * fixes is checked exactly, those JFR times (the calls, the wait) against the file's own. In this
 * package so that the expected text is formatted by the outputs' own {@link Units}.
 */
class ServerRequestOutputTest {

    private static final long B_SERVER_QUEUE_NANOS = 5_000_000;

    @TempDir
    static Path dir;
    static Path a;
    static Path b;
    // What the file says of request 1: its calls' total time and its blocked time (the wait).
    static long callsNanos;
    static long blockedNanos;

    @BeforeAll
    static void record() throws Exception {
        a = dir.resolve("a.jfr");
        b = dir.resolve("b.jfr");
        ServerRequestRecording.write(a, SERVER_QUEUE_NANOS);
        ServerRequestRecording.write(b, B_SERVER_QUEUE_NANOS);
        callsNanos = ServerRequestRecording.callNanos(a).stream().mapToLong(Long::longValue).sum();
        for (RecordedEvent e : RecordingFile.readAllEvents(a)) {
            if (e.getEventType().getName().equals("hopscope.Wait")) {
                blockedNanos += epochNanos(e.getEndTime()) - epochNanos(e.getStartTime());
            }
        }
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static long p99Of(long nanos) {
        return new Histogram(3).highestEquivalentValue(nanos);
    }

    private static String calls() {
        return CALL + " 2 x " + Units.nanos(callsNanos / 2.0) + " (total " + Units.nanos(callsNanos) + ", self "
                + Units.nanos(callsNanos) + ")";
    }

    @Test
    void textSaysWhichRequestsAServerReceivedAndTheirServerQueueApart() {
        Cli cli = Cli.run("report", a.toString());
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        String out = cli.out();
        assertThat(out).contains("\nrequests: 3 (2 server, 1 client)\n")
                .contains("\nserver queue of " + ROUTE + ": mean 1.25 ms, p99 " + Units.nanos(p99Of(SERVER_QUEUE_NANOS))
                        + " per request, 1 of 2 request(s) queued; its handler's own: 1.0 hop(s), queue delay 200.0 us\n")
                .doesNotContain("server queue of " + CLIENT);
        // The table's queue column is the application's handoffs only: 400 us over two requests.
        assertThat(out).containsPattern("\n" + Pattern.quote(ROUTE) + " +2 +\\S+ +\\S+ \\S+ +\\S+ \\S+ +\\S+ \\S+ +\\S+ \\S+ +1\\.0/2 +200\\.0 us ");

        String first = request(out, 1);
        assertThat(first).startsWith("server request 1  " + ROUTE + "  ok  ")
                .contains("\n  trace " + ServerRequestRecording.TRACE + " span " + ServerRequestRecording.SPAN + "\n")
                .contains("\n  2 hop(s) (1 handoff, 1 wake), 2 thread(s); server queue 2.50 ms, blocked "
                        + Units.nanos(blockedNanos) + ", queue delay 400.0 us, wake latency 30.0 us, gc 0 ns\n")
                .containsPattern("\n  hop 1: handoff " + POLLER + " -> " + EXEC + " at \\+[^,]+, queue delay 2\\.50 ms via "
                        + Pattern.quote(SERVER_VIA) + " \\(server queue\\)\n")
                .containsPattern("\n  hop 2: handoff " + EXEC + " -> " + HANDLER + " at \\+[^,]+, queue delay 400\\.0 us via "
                        + Pattern.quote(HANDLER_VIA) + "\n")
                .containsPattern("\n  hop 3: wake    " + HANDLER + " -> " + EXEC + " at \\+[^,]+, wake latency 30\\.0 us via \\S+\n")
                .contains("\n  calls: " + calls() + "\n")
                // The poller hands the request over and runs none of it: no lane, no thread line.
                .doesNotContain("  " + POLLER + " |").doesNotContain("thread " + POLLER);
        assertThat(request(out, 2)).startsWith("server request 2  " + ROUTE + "  ok  ")
                .contains("\n  0 hop(s), 1 thread(s); server queue 0 ns, blocked 0 ns,").doesNotContain("calls:");
        assertThat(request(out, 3)).startsWith("request 3  " + CLIENT + "  ok  ")
                .contains("\n  0 hop(s), 1 thread(s); blocked 0 ns,").doesNotContain("server");
    }

    /** The text of request {@code id} in the worst list, from after its rank ("server request 1 ..."). */
    private static String request(String out, long id) {
        Matcher m = Pattern.compile("\n#\\d+ ((?:server )?request " + id + "  [^\n]*\n(?:  [^\n]*\n)*)").matcher(out);
        assertThat(m.find()).as("request %d in\n%s", id, out).isTrue();
        return m.group(1);
    }

    @Test
    void jsonHasTheKindTheServerQueueAndTheMarkedHandOver() throws Exception {
        Cli cli = Cli.run("report", a.toString(), "--format", "json");
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        JsonNode route = summary(json, ROUTE);
        assertThat(route.get("kinds").toString()).isEqualTo("{\"server\":2,\"client\":0,\"internal\":0}");
        assertThat(route.get("serverQueue").get("meanNanos").asDouble()).isEqualTo(SERVER_QUEUE_NANOS / 2.0);
        assertThat(route.get("serverQueue").get("p99Nanos").asLong()).isEqualTo(p99Of(SERVER_QUEUE_NANOS));
        assertThat(route.get("serverQueue").get("queued").asLong()).isEqualTo(1);
        assertThat(route.get("meanQueueDelayNanos").asDouble()).isEqualTo(HANDLER_QUEUE_NANOS / 2.0);
        JsonNode client = summary(json, CLIENT);
        assertThat(client.get("kinds").get("client").asLong()).isEqualTo(1);
        assertThat(client.get("serverQueue").get("queued").asLong()).isZero();

        JsonNode r = request(json, 1);
        assertThat(r.get("kind").asText()).isEqualTo("server");
        assertThat(r.get("serverQueueNanos").asLong()).isEqualTo(SERVER_QUEUE_NANOS);
        assertThat(r.get("serverQueueHops").asInt()).isEqualTo(1);
        assertThat(r.get("hops").asInt()).isEqualTo(2);
        assertThat(r.get("queueDelayNanos").asLong()).isEqualTo(HANDLER_QUEUE_NANOS);
        assertThat(r.get("wakeLatencyNanos").asLong()).isEqualTo(WAKE_NANOS);
        JsonNode handOver = r.get("hopList").get(0);
        assertThat(handOver.get("serverQueue").asBoolean()).isTrue();
        assertThat(handOver.get("from").get("name").asText()).isEqualTo(POLLER);
        assertThat(handOver.get("delayNanos").asLong()).isEqualTo(SERVER_QUEUE_NANOS);
        assertThat(r.get("hopList").get(1).get("serverQueue").asBoolean()).isFalse();
        assertThat(r.get("policies").toString()).isEqualTo("[{\"name\":\"" + CALL + "\",\"kind\":\"boundary\",\"count\":2,"
                + "\"totalNanos\":" + callsNanos + ",\"selfNanos\":" + callsNanos + "}]");
        assertThat(request(json, 2).get("serverQueueNanos").asLong()).isZero();
        assertThat(request(json, 3).get("kind").asText()).isEqualTo("client");
    }

    private static JsonNode summary(JsonNode json, String name) {
        for (JsonNode s : json.get("summary")) {
            if (s.get("name").asText().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no summary of " + name);
    }

    private static JsonNode request(JsonNode json, long id) {
        for (JsonNode r : json.get("requests")) {
            if (r.get("id").asLong() == id) {
                return r;
            }
        }
        throw new AssertionError("no request " + id);
    }

    @Test
    void htmlDrawsThePollerAsTheHandOversOriginOnly() throws Exception {
        Cli cli = Cli.run("report", a.toString(), "--format", "html");
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        String page = cli.out();
        assertThat(page).contains(".arrow-server-queue {").contains("'server-queue': '#c0392b'");
        JsonNode data = HtmlReportTest.data(page);
        assertThat(data.get("kinds").asText()).isEqualTo("requests: 3 (2 server, 1 client)");
        JsonNode route = data.get("summary").get(0);
        assertThat(route.get("name").asText()).isEqualTo(ROUTE);
        assertThat(route.get("server").asBoolean()).isTrue();
        assertThat(route.get("serverQueueMean").asText()).isEqualTo("1.25 ms");
        assertThat(route.get("serverQueue").asText()).startsWith("server queue of " + ROUTE + ": mean 1.25 ms, p99 ");
        JsonNode r = data.get("requests").get(0);
        assertThat(r.get("id").asLong()).isEqualTo(1);
        assertThat(r.get("word").asText()).isEqualTo("server request");
        assertThat(r.get("kind").asText()).isEqualTo("server");
        assertThat(r.get("serverQueue").asText()).isEqualTo("server queue 2.50 ms, ");
        assertThat(r.get("calls").asText()).isEqualTo(calls());
        // The poller's lane first, the hand-over's origin, with nothing of the request on it.
        JsonNode poller = r.get("lanes").get(0);
        assertThat(poller.get("thread").asText()).isEqualTo(POLLER);
        assertThat(poller.get("origin").asBoolean()).isTrue();
        assertThat(poller.get("segments")).isEmpty();
        assertThat(poller.get("waits")).isEmpty();
        for (int i = 1; i < r.get("lanes").size(); i++) {
            assertThat(r.get("lanes").get(i).has("origin")).isFalse();
        }
        JsonNode handOver = r.get("hopList").get(0);
        assertThat(handOver.get("serverQueue").asBoolean()).isTrue();
        assertThat(handOver.get("fromLane").asInt()).isZero();
        assertThat(handOver.get("delay").asText()).isEqualTo("2.50 ms");
        assertThat(handOver.get("e").asLong() - handOver.get("s").asLong()).isEqualTo(SERVER_QUEUE_NANOS);
        JsonNode client = data.get("requests").get(2);
        assertThat(client.get("word").asText()).isEqualTo("request");
        assertThat(client.get("serverQueue").asText()).isEmpty();
        assertThat(client.get("calls").asText()).isEmpty();
    }

    @Test
    void diffComparesTheServerQueueApartFromTheQueueDelay() throws Exception {
        Cli cli = Cli.run("diff", a.toString(), b.toString());
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        String fmt = "  %-34s %14s %14s %9s%n";
        assertThat(cli.out()).contains(String.format(Locale.ROOT, fmt, "server queue/request", "1.25 ms", "2.50 ms", "2.00x")
                + String.format(Locale.ROOT, fmt, "server queue p99", Units.nanos(p99Of(SERVER_QUEUE_NANOS)),
                Units.nanos(p99Of(B_SERVER_QUEUE_NANOS)), Units.ratio(p99Of(B_SERVER_QUEUE_NANOS)
                        / (double) p99Of(SERVER_QUEUE_NANOS)))
                + String.format(Locale.ROOT, fmt, "queue delay/request", "200.0 us", "200.0 us", "1.00x"));
        // Only where a server received requests.
        assertThat(cli.out()).as(cli.out()).contains("\n" + CLIENT + ":\n");
        String client = cli.out().substring(cli.out().indexOf("\n" + CLIENT + ":\n"));
        assertThat(client).doesNotContain("server queue");
        Cli json = Cli.run("diff", a.toString(), b.toString(), "--format", "json");
        List<JsonNode> rows = new ObjectMapper().readTree(json.out()).get("rows").findParents("metric").stream()
                .filter(n -> n.get("metric").asText().equals("server queue/request")).toList();
        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.get("name").asText()).isEqualTo(ROUTE);
            assertThat(row.get("unit").asText()).isEqualTo("ns");
            assertThat(row.get("a").asDouble()).isEqualTo(SERVER_QUEUE_NANOS / 2.0);
            assertThat(row.get("b").asDouble()).isEqualTo(B_SERVER_QUEUE_NANOS / 2.0);
        });
    }

    @Test
    void traceNamesTheHandOverAsTheServerQueueAndNestsTheCallsInTheirSegment() throws Exception {
        Path out = dir.resolve("trace.json");
        Cli cli = Cli.run("trace", a.toString(), "-o", out.toString());
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        JsonNode trace = new ObjectMapper().readTree(out.toFile());
        assertThat(TraceSchema.check(trace)).isEmpty();
        Map<Long, String> threads = new HashMap<>();
        List<JsonNode> events = new ArrayList<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("name").asText().equals("thread_name")) {
                threads.put(e.get("tid").asLong(), e.get("args").get("name").asText());
            } else {
                events.add(e);
            }
        }
        List<JsonNode> handOver = events.stream().filter(e -> e.get("name").asText().startsWith("hop 1 ")).toList();
        assertThat(handOver).extracting(e -> e.get("name").asText() + " " + e.get("ph").asText() + " "
                + threads.get(e.get("tid").asLong())).containsExactlyInAnyOrder(
                        "hop 1 server queue out X " + POLLER, "hop 1 server queue s " + POLLER,
                        "hop 1 server queue in X " + EXEC, "hop 1 server queue f " + EXEC);
        JsonNode in = handOver.stream().filter(e -> e.get("name").asText().endsWith(" in")).findFirst().orElseThrow();
        assertThat(in.get("args").get("serverQueue").asBoolean()).isTrue();
        assertThat(in.get("args").get("delayMicros").asDouble()).isEqualTo(SERVER_QUEUE_NANOS / 1e3);
        JsonNode start = handOver.stream().filter(e -> e.get("ph").asText().equals("s")).findFirst().orElseThrow();
        JsonNode finish = handOver.stream().filter(e -> e.get("ph").asText().equals("f")).findFirst().orElseThrow();
        assertThat(finish.get("ts").asDouble() - start.get("ts").asDouble()).isCloseTo(SERVER_QUEUE_NANOS / 1e3, within(1e-6));
        assertThat(events).filteredOn(e -> e.get("name").asText().equals("hop 2 handoff in")).singleElement()
                .satisfies(e -> assertThat(e.get("args").has("serverQueue")).isFalse());
        // The poller's track holds the hand-over's start only: no segment, span or wait of the request.
        assertThat(events).filteredOn(e -> POLLER.equals(threads.get(e.get("tid").asLong())))
                .allSatisfy(e -> assertThat(e.get("cat").asText()).isEqualTo("hop"));
        // Each call is a slice on the handler's track, inside the request's segment there.
        List<JsonNode> calls = events.stream().filter(e -> e.path("cat").asText().equals("boundary")).toList();
        assertThat(calls).hasSize(2).allSatisfy(c -> {
            assertThat(c.get("args").get("class").asText()).isEqualTo(CALL);
            assertThat(c.get("args").get("request").asLong()).isEqualTo(1);
            assertThat(threads.get(c.get("tid").asLong())).isEqualTo(HANDLER);
            assertThat(events).anySatisfy(seg -> {
                assertThat(seg.path("cat").asText()).isEqualTo("segment");
                assertThat(seg.get("tid").asLong()).isEqualTo(c.get("tid").asLong());
                assertThat(seg.get("args").get("request").asLong()).isEqualTo(1);
                assertThat(seg.get("ts").asDouble()).isLessThanOrEqualTo(c.get("ts").asDouble() + 1e-3);
                assertThat(c.get("ts").asDouble() + c.get("dur").asDouble())
                        .isLessThanOrEqualTo(seg.get("ts").asDouble() + seg.get("dur").asDouble() + 1e-3);
            });
        });
        assertThat(calls.stream().mapToDouble(c -> c.get("dur").asDouble()).sum()).isCloseTo(callsNanos / 1e3, within(1e-6));
    }

    @Test
    void theCallersTraceIdFindsTheServerRequest() throws Exception {
        // A server request carries the trace its caller made the call in (from the traceparent header).
        Cli cli = Cli.run("report", a.toString(), "--format", "json", "--trace-id", ServerRequestRecording.TRACE.toUpperCase());
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("requests")).singleElement().satisfies(r -> {
            assertThat(r.get("id").asLong()).isEqualTo(1);
            assertThat(r.get("kind").asText()).isEqualTo("server");
            assertThat(r.get("traceId").asText()).isEqualTo(ServerRequestRecording.TRACE);
            assertThat(r.get("serverQueueNanos").asLong()).isEqualTo(SERVER_QUEUE_NANOS);
        });
        assertThat(json.get("summary")).singleElement().satisfies(s -> {
            assertThat(s.get("name").asText()).isEqualTo(ROUTE);
            assertThat(s.get("count").asLong()).isEqualTo(1);
            assertThat(s.get("serverQueue").get("meanNanos").asDouble()).isEqualTo(SERVER_QUEUE_NANOS);
        });
        Cli text = Cli.run("report", a.toString(), "--trace-id", ServerRequestRecording.TRACE);
        assertThat(text.out()).contains("\nrequests: 1 (1 server)\n").contains("\n#1 server request 1  " + ROUTE + "  ok  ");
        Cli other = Cli.run("report", a.toString(), "--format", "json", "--trace-id", "4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(new ObjectMapper().readTree(other.out()).get("requests")).isEmpty();
    }

    @Test
    void aRecordingFromBeforeTheFieldsReadsAsBefore() throws Exception {
        Path old = Paths.moduleDir().resolve("src/test/resources/fuzz/known-path.jfr");
        Cli text = Cli.run("report", old.toString());
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).doesNotContain("server").doesNotContain("\nrequests: ").doesNotContain("calls:")
                .contains("\n#1 request ");
        Cli html = Cli.run("report", old.toString(), "--format", "html");
        assertThat(html.exitCode()).as(html.err()).isZero();
        JsonNode data = HtmlReportTest.data(html.out());
        assertThat(data.get("kinds").asText()).isEmpty();
        assertThat(data.get("summary").get(0).get("server").asBoolean()).isFalse();
    }
}
