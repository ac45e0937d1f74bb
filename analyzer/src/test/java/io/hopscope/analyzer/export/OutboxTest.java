package io.hopscope.analyzer.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.hopscope.analyzer.export.Outbox.Batch;
import io.hopscope.analyzer.export.Outbox.Signal;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The outbox of live's exports against a local HTTP endpoint that refuses, answers late, goes away and
 * comes back: every batch sent once and oldest first, the oldest dropped and counted when full, one line
 * when an outage begins and one when it ends, a refusal that would repeat in one line without the
 * header's value, and the jitter as seeded.
 */
class OutboxTest {

    private static final String TOKEN = "Bearer s3cr3t-0utb0x-t0ken";

    private final List<String> received = Collections.synchronizedList(new ArrayList<>());
    private final StringWriter errText = new StringWriter();
    private final PrintWriter err = new PrintWriter(errText, true);
    private final AtomicReference<String> refusal = new AtomicReference<>();
    private HttpServer server;
    private Outbox outbox;

    @AfterEach
    void stop() {
        if (outbox != null) {
            outbox.close(0);
        }
        if (server != null) {
            server.stop(0);
        }
    }

    /** Takes each body as one received batch once {@code refusals} answers of {@code status} have been given. */
    private void serve(int port, int refusals, int status, String retryAfter) throws IOException {
        AtomicInteger refused = new AtomicInteger();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (refused.getAndIncrement() < refusals) {
                if (retryAfter != null) {
                    exchange.getResponseHeaders().add("Retry-After", retryAfter);
                }
                // As some servers do: the request's credentials quoted back in the answer.
                byte[] answer = ("denied for " + exchange.getRequestHeaders().getFirst("Authorization"))
                        .getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, answer.length);
                exchange.getResponseBody().write(answer);
            } else {
                received.add(body);
                exchange.sendResponseHeaders(200, -1);
            }
            exchange.close();
        });
        server.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private Outbox outbox(int port, int profiles, int metrics) {
        return new Outbox("http://127.0.0.1:" + port, Map.of(Signal.profiles, profiles, Signal.metrics, metrics),
                new Random(43), err, refusal::set);
    }

    private static Headers headers() {
        try {
            return Headers.parse("Authorization=" + TOKEN.replace(" ", "%20"), "test");
        } catch (Headers.HeaderProblem e) {
            throw new AssertionError(e);
        }
    }

    private static Batch batch(int port, Signal signal, String body) {
        return new Batch(signal, URI.create("http://127.0.0.1:" + port + "/v1/" + signal), body.getBytes(StandardCharsets.UTF_8),
                "text/plain", headers(), null);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private List<String> lines() {
        return errText.toString().lines().toList();
    }

    @Test
    void anEndpointThatRefusesForAWhileGetsEveryBatchOnceOldestFirstWithOneLineEachWay() throws Exception {
        int port = freePort();
        serve(port, 5, 503, "0");
        outbox = outbox(port, 5, 5);
        for (int i = 1; i <= 3; i++) {
            outbox.offer(batch(port, Signal.profiles, "window " + i));
        }
        await(() -> received.size() == 3, "three batches taken");
        assertThat(received).containsExactly("window 1", "window 2", "window 3");
        await(() -> outbox.sent(Signal.profiles) == 3, "three batches counted as sent");
        assertThat(outbox.dropped(Signal.profiles)).isZero();
        await(() -> lines().size() == 2, "the line of the outage's end");
        assertThat(lines()).hasSize(2);
        assertThat(lines().get(0)).startsWith("live: http://127.0.0.1:" + port + "/v1/profiles: refused with HTTP 503")
                .endsWith("; keeping up to 5 profile windows and 5 metrics exports and trying again")
                .doesNotContain("s3cr3t");
        assertThat(lines().get(1)).matches("live: http://127\\.0\\.0\\.1:" + port
                + ": taking data again after \\d+ s and 5 tries; nothing was dropped");
    }

    @Test
    void whileTheEndpointIsGoneTheOldestAreDroppedAndCountedAndTheNewestArrives() throws Exception {
        int port = freePort(); // nothing listens: connections are refused
        outbox = outbox(port, 1, 2);
        for (int i = 1; i <= 4; i++) {
            outbox.offer(batch(port, Signal.profiles, "window " + i));
            outbox.offer(batch(port, Signal.metrics, "second " + i));
        }
        await(() -> lines().size() == 1, "the line of the outage's start");
        assertThat(outbox.dropped(Signal.profiles)).isEqualTo(3);
        assertThat(outbox.dropped(Signal.metrics)).isEqualTo(2);
        serve(port, 0, 200, null);
        await(() -> received.size() == 3, "what was kept taken");
        assertThat(received).as("in the order they came").containsExactly("second 3", "window 4", "second 4");
        await(() -> lines().size() == 2, "the line of the outage's end");
        // Whichever batch was tried first (the oldest may have been dropped before any try).
        assertThat(lines().get(0)).startsWith("live: http://127.0.0.1:" + port + "/v1/").contains(": cannot connect")
                .endsWith("keeping up to 1 profile window and 2 metrics exports and trying again");
        assertThat(lines().get(1)).endsWith("; dropped 3 profile windows and 2 metrics exports (the oldest)");

        // The next outage counts its own drops.
        outbox.offer(batch(port, Signal.metrics, "second 5"));
        await(() -> received.size() == 4, "a batch after the outage");
        assertThat(lines()).hasSize(2);
    }

    @Test
    void aRefusedTokenIsOneLineWithoutItsValueAndNothingMoreIsSent() throws Exception {
        int port = freePort();
        serve(port, Integer.MAX_VALUE, 401, null);
        outbox = outbox(port, 3, 3);
        outbox.offer(batch(port, Signal.metrics, "second 1"));
        await(() -> refusal.get() != null, "the refusal");
        assertThat(refusal.get()).isEqualTo("http://127.0.0.1:" + port + "/v1/metrics: refused with HTTP 401: denied for ***");
        assertThat(outbox.refused()).isTrue();
        outbox.offer(batch(port, Signal.metrics, "second 2"));
        outbox.close(TimeUnit.SECONDS.toNanos(1));
        assertThat(received).isEmpty();
        assertThat(errText.toString()).isEmpty();
    }

    @Test
    void closingGivesWhatIsQueuedItsGraceThenCountsTheRestAsDropped() throws Exception {
        int port = freePort();
        outbox = outbox(port, 3, 3);
        outbox.offer(batch(port, Signal.profiles, "window 1"));
        outbox.offer(batch(port, Signal.metrics, "second 1"));
        long start = System.nanoTime();
        outbox.close(TimeUnit.MILLISECONDS.toNanos(500));
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(20));
        assertThat(outbox.dropped(Signal.profiles)).isEqualTo(1);
        assertThat(outbox.dropped(Signal.metrics)).isEqualTo(1);
        assertThat(lines()).last().asString().isEqualTo("live: http://127.0.0.1:" + port
                + ": 1 profile window and 1 metrics export not sent: it did not take them before live stopped");
    }

    @Test
    void aPartialRejectionIsALineAndTheBatchIsNotSentAgain() throws Exception {
        int port = freePort();
        serve(port, 0, 200, null);
        outbox = outbox(port, 3, 3);
        outbox.offer(new Batch(Signal.profiles, URI.create("http://127.0.0.1:" + port + "/v1/profiles"),
                "window 1".getBytes(StandardCharsets.UTF_8), "text/plain", headers(), answer -> "rejected 1 of 2 profiles"));
        await(() -> lines().size() == 1, "the rejection's line");
        assertThat(lines()).containsExactly("live: rejected 1 of 2 profiles");
        assertThat(received).containsExactly("window 1");
    }

    @Test
    void theBackoffDoublesToItsCeilingWithTheSeededJitter() {
        Random a = new Random(7);
        Random b = new Random(7);
        for (int tries = 1; tries <= 9; tries++) {
            long ceiling = Math.min(Outbox.MAX_BACKOFF_NANOS, Outbox.FIRST_BACKOFF_NANOS << Math.min(tries - 1, 10));
            long wait = Outbox.backoffNanos(tries, -1, a);
            assertThat(wait).isBetween(ceiling / 2, ceiling);
            assertThat(Outbox.backoffNanos(tries, -1, b)).isEqualTo(wait);
        }
        assertThat(Outbox.backoffNanos(1, 3, a)).isEqualTo(TimeUnit.SECONDS.toNanos(3));
        assertThat(Outbox.backoffNanos(1, 3600, a)).isEqualTo(Outbox.MAX_BACKOFF_NANOS);
        assertThat(Outbox.backoffNanos(1, 0, a)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
    }
}
