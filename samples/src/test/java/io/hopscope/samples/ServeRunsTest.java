package io.hopscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Short real runs of {@code serve} in each mode this JDK has (virtual on the second JDK:
 * {@code VirtualThreadsIT}): every response valid, and the figures there and adding up. Nothing here
 * depends on how fast the machine is, only on what holds for every request whatever the timing.
 */
class ServeRunsTest {

    static final int COUNT = 60;
    static final int BACKEND_DELAY_MS = 5;
    static final int CONNECTIONS = 6;

    /** The arguments of every run here: 60 measured requests after a short warm-up, a 5 ms backend. */
    static String[] args(String mode, Path requestsFile) {
        return new String[] {"serve", "--mode", mode, "--rate", "100", "--count", Integer.toString(COUNT), "--warmup", "0.3",
            "--connections", Integer.toString(CONNECTIONS), "--threads", "2", "--backend-delay-ms",
            Integer.toString(BACKEND_DELAY_MS), "--requests-file", requestsFile.toString()};
    }

    @ParameterizedTest
    @ValueSource(strings = {"pool", "async"})
    void everyRequestIsAnsweredAndTheFiguresAddUp(String mode, @TempDir Path dir) throws Exception {
        Path requests = dir.resolve("requests.tsv");

        Run run = Run.of(args(mode, requests));

        assertThat(run.exitCode).as(run.toString()).isZero();
        checkFigures(run::figure, mode, "platform", run.toString());
        checkRequestsFile(requests);
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void virtualRunsEachRequestOnAVirtualThread(@TempDir Path dir) throws Exception {
        Path requests = dir.resolve("requests.tsv");

        Run run = Run.of(args("virtual", requests));

        assertThat(run.exitCode).as(run.toString()).isZero();
        checkFigures(run::figure, "virtual", "virtual", run.toString());
        checkRequestsFile(requests);
    }

    /**
     * What holds whatever the timing: counts that add up, percentiles in order, a handler that took
     * at least the backend's delay, and a client that waited at least what the handler took (each
     * request's wait, from when it was due, holds its handler's time, so every percentile of the one
     * is at least the other's).
     */
    static void checkFigures(Function<String, String> figure, String mode, String threadKind, String run) {
        assertThat(figure.apply("scenario")).isEqualTo("serve");
        assertThat(figure.apply("mode")).isEqualTo(mode);
        assertThat(figure.apply("arrivals")).isEqualTo("poisson");
        assertThat(Long.parseLong(figure.apply("client_sent"))).as(run).isEqualTo(COUNT);
        assertThat(Long.parseLong(figure.apply("client_ok"))).as(run).isEqualTo(COUNT);
        assertThat(Long.parseLong(figure.apply("client_errors"))).as(run).isZero();
        // Warm-up requests say so and are left out: the handler counts exactly the measured ones.
        assertThat(Long.parseLong(figure.apply("handler_requests"))).as(run).isEqualTo(COUNT);
        assertThat(figure.apply("handler_threads")).as(run).isEqualTo(threadKind);
        double p50 = number(figure, "client_latency_p50_us");
        double p90 = number(figure, "client_latency_p90_us");
        double p99 = number(figure, "client_latency_p99_us");
        assertThat(p50).as(run).isPositive().isLessThanOrEqualTo(p90);
        assertThat(p90).as(run).isLessThanOrEqualTo(p99);
        assertThat(p99).as(run).isLessThanOrEqualTo(number(figure, "client_latency_max_us"));
        double handlerP50 = number(figure, "handler_p50_us");
        assertThat(handlerP50).as(run).isGreaterThanOrEqualTo(BACKEND_DELAY_MS * 1000)
                .isLessThanOrEqualTo(number(figure, "handler_p99_us"));
        assertThat(p50).as(run).isGreaterThanOrEqualTo(handlerP50);
        assertThat(number(figure, "client_outside_handler_p50_us")).as(run).isBetween(0.0, p50);
        assertThat(number(figure, "client_outside_handler_p99_us")).as(run).isBetween(0.0, p99);
        assertThat(Long.parseLong(figure.apply("client_connections_opened"))).as(run).isBetween(1L, (long) CONNECTIONS);
        assertThat(number(figure, "measured_s")).as(run).isPositive();
        assertThat(number(figure, "cpu_us_per_request")).as(run).isPositive();
        assertThat(Long.parseLong(figure.apply("allocated_bytes_per_request"))).as(run).isPositive();
        assertThat(Integer.parseInt(figure.apply("peak_threads"))).as(run).isPositive();
    }

    /** One line a request, the measured ones all answered, each with a trace id of its own. */
    static void checkRequestsFile(Path requests) throws Exception {
        List<String[]> lines = Files.readAllLines(requests).stream().map(l -> l.split("\t")).collect(Collectors.toList());
        assertThat(String.join("\t", lines.get(0)))
                .isEqualTo("trace_id\tphase\tdue_us\tsent_us\tanswered_us\thandler_us\tstatus\toutcome");
        List<String[]> rows = lines.subList(1, lines.size());
        assertThat(rows.get(0)[1]).isEqualTo("first");
        assertThat(rows).allSatisfy(r -> {
            assertThat(r).hasSize(8);
            assertThat(r[0]).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
            assertThat(r[7]).isEqualTo("ok");
        });
        assertThat(rows.stream().map(r -> r[0]).distinct().count()).isEqualTo(rows.size());
        List<String[]> measured = rows.stream().filter(r -> r[1].equals("measured")).collect(Collectors.toList());
        assertThat(measured).hasSize(COUNT).allSatisfy(r -> {
            long due = Long.parseLong(r[2]);
            long sent = Long.parseLong(r[3]);
            long answered = Long.parseLong(r[4]);
            assertThat(r[6]).isEqualTo("200");
            assertThat(sent).isGreaterThanOrEqualTo(due);
            // The handler ran inside the exchange; times are whole us, so allow one for each rounding.
            assertThat(Long.parseLong(r[5])).isBetween((long) BACKEND_DELAY_MS * 1000, answered - sent + 2);
        });
        assertThat(rows.stream().filter(r -> r[1].equals("warmup"))).allSatisfy(r -> assertThat(r[6]).isEqualTo("200"));
    }

    private static double number(Function<String, String> figure, String key) {
        return Double.parseDouble(figure.apply(key));
    }
}
