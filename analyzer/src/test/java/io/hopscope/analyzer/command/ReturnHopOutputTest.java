package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.ContractEvents;
import io.hopscope.analyzer.testing.TraceSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The way back as a {@code return} hop (a result picked up without parking) in every output, and
 * {@code diff} per hop kind: the same path at two timings (woken back, or the result already there)
 * differs in wakes and returns, not in hops. And a scheduled handoff's delay, apart from its queue
 * delay.
 */
class ReturnHopOutputTest {

    @TempDir
    static Path dir;
    static Path returned;
    static Path woken;
    static Path scheduled;

    @BeforeAll
    static void record() throws Exception {
        returned = dir.resolve("returned.jfr");
        woken = dir.resolve("woken.jfr");
        scheduled = dir.resolve("scheduled.jfr");
        record(returned, false, 0);
        record(woken, true, 0);
        record(scheduled, false, 20_000_000);
    }

    /** One request: the caller hands it to "worker-1", which completes the result the caller picks up. */
    private static void record(Path file, boolean parked, long scheduledNanos) throws Exception {
        try (Recording recording = new Recording()) {
            for (Class<? extends jdk.jfr.Event> type : java.util.List.of(ContractEvents.Request.class,
                    ContractEvents.Segment.class, ContractEvents.Hop.class, ContractEvents.Wait.class)) {
                recording.enable(type).withoutThreshold();
            }
            recording.start();
            Thread caller = Thread.currentThread();
            ContractEvents.Request request = new ContractEvents.Request();
            request.begin();
            ContractEvents.instantSegment(1, "start", 100);
            // The worker stays alive until the hop back is written: JFR writes a thread that has
            // ended as null.
            CountDownLatch handedOver = new CountDownLatch(1);
            CountDownLatch back = new CountDownLatch(1);
            Thread worker = new Thread(() -> {
                hop("handoff", caller, Thread.currentThread(), 2_000, "java.util.concurrent.ThreadPoolExecutor",
                        scheduledNanos);
                ContractEvents.instantSegment(1, "task", 200);
                handedOver.countDown();
                awaitQuietly(back);
            }, "worker-1");
            worker.start();
            handedOver.await();
            if (parked) {
                ContractEvents.Wait wait = new ContractEvents.Wait();
                wait.begin();
                wait.requestId = 1;
                wait.kind = "CompletableFuture.get";
                wait.wakerThread = worker;
                wait.wakeLatencyNanos = 3_000;
                wait.outcome = "value";
                wait.commit();
            }
            hop(parked ? "wake" : "return", worker, caller, 3_000, "java.util.concurrent.CompletableFuture", 0);
            back.countDown();
            worker.join();
            ContractEvents.instantSegment(1, parked ? "resume" : "start", 10);
            request.requestId = 1;
            request.name = "GET /result";
            request.outcome = "ok";
            request.statusCode = 200;
            request.commit();
            recording.stop();
            recording.dump(file);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void hop(String kind, Thread from, Thread to, long delay, String via, long scheduledNanos) {
        ContractEvents.Hop hop = new ContractEvents.Hop();
        hop.requestId = 1;
        hop.kind = kind;
        hop.fromThread = from;
        hop.toThread = to;
        hop.delayNanos = delay;
        hop.via = via;
        hop.scheduledNanos = scheduledNanos;
        hop.commit();
    }

    @Test
    void text() {
        Cli cli = Cli.run("report", returned.toString());
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        assertThat(cli.out()).contains("2 hop(s) (1 handoff, 1 return), 2 thread(s)")
                .contains("queue delay 2.0 us, wake latency 0 ns, return delay 3.0 us")
                .containsPattern("hop 2: return +worker-1 -> \\S+ at \\+[^,]+, return delay 3.0 us via java.util.concurrent.CompletableFuture");
    }

    @Test
    void json() throws Exception {
        Cli cli = Cli.run("report", returned.toString(), "--format", "json");
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        JsonNode r = json.get("requests").get(0);
        assertThat(r.get("hops").asInt()).isEqualTo(2);
        assertThat(r.get("handoffHops").asInt()).isEqualTo(1);
        assertThat(r.get("wakeHops").asInt()).isZero();
        assertThat(r.get("returnHops").asInt()).isEqualTo(1);
        assertThat(r.get("returnDelayNanos").asLong()).isEqualTo(3_000);
        assertThat(r.get("queueDelayNanos").asLong()).isEqualTo(2_000);
        assertThat(r.get("wakeLatencyNanos").asLong()).isZero();
        assertThat(r.get("hopList").get(1).get("kind").asText()).isEqualTo("return");
        JsonNode s = json.get("summary").get(0);
        assertThat(s.get("meanReturnHops").asDouble()).isEqualTo(1.0);
        assertThat(s.get("meanWakeHops").asDouble()).isZero();
        assertThat(s.get("meanHandoffHops").asDouble()).isEqualTo(1.0);
        assertThat(s.get("meanReturnDelayNanos").asDouble()).isEqualTo(3_000.0);
    }

    @Test
    void htmlDrawsTheReturnArrowInItsOwnColour() {
        Cli cli = Cli.run("report", returned.toString(), "--format", "html");
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        assertThat(cli.out()).contains(".arrow-return {").contains("'return': '#7b3fbf'")
                .contains("\"kind\":\"return\"").contains("\"hopKinds\":\"2 hop(s) (1 handoff, 1 return), \"")
                .contains("\"ret\":\"3.0 us\"");
    }

    @Test
    void traceFlowsNameTheKind() throws Exception {
        Path out = dir.resolve("trace.json");
        Cli cli = Cli.run("trace", returned.toString(), "-o", out.toString());
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        JsonNode trace = new ObjectMapper().readTree(Files.readString(out));
        assertThat(TraceSchema.check(trace)).isEmpty();
        assertThat(trace.get("traceEvents").findValuesAsText("name")).contains("hop 2 return", "hop 1 handoff");
    }

    @Test
    void flameOfHopsNamesTheReturnDelay() {
        Cli cli = Cli.run("flame", returned.toString(), "--kind", "hops", "--format", "folded");
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        assertThat(cli.out()).containsPattern(";return delay to pool [^;]+ 3000\n")
                .contains(";queue delay to pool worker 2000\n");
    }

    @Test
    void diffComparesHopsPerKind() {
        Cli cli = Cli.run("diff", woken.toString(), returned.toString());
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        assertThat(cli.out()).containsPattern("hops/request +2 +2")
                .containsPattern("handoff hops/request +1 +1")
                .containsPattern("wake hops/request +1 +0")
                .containsPattern("return hops/request +0 +1");
    }

    @Test
    void aScheduledDelayIsShownApartFromTheQueueDelay() throws Exception {
        Cli text = Cli.run("report", scheduled.toString());
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains("queue delay 2.0 us, wake latency 0 ns")
                .containsPattern("hop 1: handoff \\S+ -> worker-1 at \\+[^,]+, scheduled 20.00 ms, queue delay 2.0 us via ");
        Cli json = Cli.run("report", scheduled.toString(), "--format", "json");
        JsonNode r = new ObjectMapper().readTree(json.out()).get("requests").get(0);
        assertThat(r.get("queueDelayNanos").asLong()).isEqualTo(2_000);
        assertThat(r.get("hopList").get(0).get("scheduledNanos").asLong()).isEqualTo(20_000_000);
        assertThat(r.get("hopList").get(1).get("scheduledNanos").asLong()).isZero();
        Path out = dir.resolve("scheduled-trace.json");
        Cli trace = Cli.run("trace", scheduled.toString(), "-o", out.toString());
        assertThat(trace.exitCode()).as(trace.err()).isZero();
        assertThat(new ObjectMapper().readTree(Files.readString(out)).findValues("scheduledMicros"))
                .extracting(JsonNode::asDouble).containsOnly(20_000.0);
    }
}
