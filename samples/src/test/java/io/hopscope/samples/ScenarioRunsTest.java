package io.hopscope.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Short real runs of each scenario against the embedded server, counting validated responses
 * (a scenario counts a response only after checking its status and body length).
 */
class ScenarioRunsTest {

    @Test
    void wrongStatusFromTheTargetFailsTheRun() throws Exception {
        // A different real server that answers 503 with a short body: every scenario must notice.
        HttpServer broken = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        broken.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = "busy".getBytes();
            exchange.sendResponseHeaders(503, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        broken.start();
        try {
            String uri = "http://127.0.0.1:" + broken.getAddress().getPort();
            for (String[] args : new String[][] {
                {"pipeline", "--uri", uri, "--count", "3"},
                {"jdk-http", "--uri", uri, "--count", "3"},
                {"jdk-http", "--uri", uri, "--count", "3", "--mode", "sync"},
                {"open-loop", "--uri", uri, "--rps", "20", "--duration", "1", "--delay-ms", "0"},
            }) {
                Run run = Run.of(args);

                assertThat(run.exitCode).as(run.toString()).isEqualTo(1);
                assertThat(run.err).as(run.toString()).contains("bad response").contains("503");
            }
        } finally {
            broken.stop(0);
        }
    }

    @Test
    void pipelineSyncOverOkHttpCountsEveryResponse() {
        Run run = Run.of("pipeline", "--mode", "sync", "--http-client", "okhttp", "--parallel", "2", "--count", "40");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.figure("ops")).isEqualTo("40");
        assertThat(run.figure("http_client")).isEqualTo("okhttp");
        assertThat(Double.parseDouble(run.figure("ops_per_s"))).isPositive();
        assertThat(Double.parseDouble(run.figure("latency_p99_us")))
                .isGreaterThanOrEqualTo(Double.parseDouble(run.figure("latency_p50_us")));
        assertThat(Long.parseLong(run.figure("allocated_bytes"))).isPositive();
        assertThat(Double.parseDouble(run.figure("cpu_us_per_op"))).isPositive();
        assertThat(Integer.parseInt(run.figure("peak_threads"))).isGreaterThanOrEqualTo(2);
        assertThat(run.figure("callers")).isEqualTo("platform");
        assertThat(run.figure("caller_threads")).isEqualTo("pipeline-caller-1 (platform), pipeline-caller-2 (platform)");
    }

    @Test
    void pipelineSyncOverAsyncOverNettyWithUploadCountsEveryResponse() {
        Run run = Run.of("pipeline", "--mode", "sync-over-async", "--http-client", "netty", "--parallel", "2",
                "--count", "40", "--size", "10000", "--response-bytes", "77");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.figure("ops")).isEqualTo("40");
        assertThat(run.figure("upload_bytes")).isEqualTo("10000");
    }

    @Test
    void pipelineOverJdkClientForAWhile() {
        Run run = Run.of("pipeline", "--mode", "sync", "--http-client", "jdk", "--parallel", "2", "--warmup", "0.5",
                "--duration", "2");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(Long.parseLong(run.figure("ops"))).as(run.toString()).isPositive();
        // The window is slept for --duration, then ends: at least that long. How much longer is the
        // machine's (the callers' last requests, a loaded scheduler), so no upper bound.
        assertThat(Double.parseDouble(run.figure("measured_s"))).as(run.toString()).isGreaterThanOrEqualTo(2.0);
    }

    @Test
    void pipelineFirstWindowCountsTheWarmup() {
        Run run = Run.of("pipeline", "--parallel", "2", "--first-window", "1", "--warmup", "1.5", "--duration", "1");

        assertThat(run.exitCode).as(run.toString()).isZero();
        // The first window is the loop's first second, warm-up included, slept for, so at least 1 s.
        // How many requests end in it is the machine's (a cold request can outlast it on a loaded one):
        // the figures must agree with each other, whatever the count.
        double seconds = Double.parseDouble(run.figure("first_window_s"));
        long ops = Long.parseLong(run.figure("first_window_ops"));
        assertThat(seconds).as(run.toString()).isGreaterThanOrEqualTo(1.0);
        assertThat(Double.parseDouble(run.figure("first_window_ops_per_s"))).as(run.toString())
                .isCloseTo(ops / seconds, within(0.1 + ops / seconds * 0.001));
        double cpuPerOp = Double.parseDouble(run.figure("first_window_cpu_us_per_op"));
        if (ops > 0) {
            assertThat(cpuPerOp).as(run.toString()).isPositive();
        } else {
            assertThat(cpuPerOp).as(run.toString()).isEqualTo(-1.0);
        }
    }

    @Test
    void pipelineWithoutFirstWindowPrintsNone() {
        Run run = Run.of("pipeline", "--parallel", "1", "--count", "5");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).doesNotContain("first_window");
    }

    @Test
    void jdkHttpAsyncCountsEveryResponse() {
        Run run = Run.of("jdk-http", "--io-threads", "2", "--producers", "2", "--in-flight", "4", "--count", "100");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.figure("ops")).isEqualTo("100");
        assertThat(run.figure("in_flight")).isEqualTo("4");
    }

    @Test
    void jdkHttpSyncWithUploadCountsEveryResponse() {
        Run run = Run.of("jdk-http", "--mode", "sync", "--count", "30", "--size", "5000");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.figure("ops")).isEqualTo("30");
        assertThat(run.figure("caller_threads")).isEqualTo("jdk-http-producer-1 (platform)");
    }

    /**
     * An open loop issues by the clock, so how many requests it sent in 2 s, and how many answers came
     * back by its last line, are the machine's (79 sent at load 20 where 100 were due): the test checks
     * what holds whatever the timing. One line a second; the totals only grow from one to the next;
     * the last one's are the done line's, none failed, and no more answered than sent.
     */
    @Test
    void openLoopPrintsOneLinePerSecondAndItsTotalsAgree() {
        Pattern second = Pattern.compile("second=(\\d+) requests=(\\d+) responses=(\\d+) outstanding=(\\d+) .*");
        for (String mode : new String[] {"async", "sync-over-async", "okhttp-sync"}) {
            Run run = Run.of("open-loop", "--mode", mode, "--rps", "50", "--duration", "2", "--delay-ms", "200");

            assertThat(run.exitCode).as(run.toString()).isZero();
            List<Matcher> lines = run.out.lines().map(second::matcher).filter(Matcher::matches).toList();
            assertThat(lines).as(run.toString()).hasSize(2);
            long[] before = {0, 0};
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = lines.get(i);
                long sent = Long.parseLong(m.group(2));
                long answered = Long.parseLong(m.group(3));
                assertThat(Integer.parseInt(m.group(1))).as(run.toString()).isEqualTo(i + 1);
                assertThat(sent).as(run.toString()).isGreaterThanOrEqualTo(before[0]).isGreaterThanOrEqualTo(answered);
                assertThat(answered).as(run.toString()).isGreaterThanOrEqualTo(before[1]);
                assertThat(Long.parseLong(m.group(4))).as(run.toString()).isEqualTo(sent - answered);
                before = new long[] {sent, answered};
            }
            assertThat(run.out.lines().filter(l -> l.startsWith("# done"))).as(run.toString())
                    .containsExactly("# done requests=" + before[0] + " responses=" + before[1] + " failed=0 outstanding="
                            + (before[0] - before[1]));
        }
    }

    @Test
    void knownPathPrintsOneLinePerRequest() {
        Run run = Run.of("known-path", "--count", "3", "--pause-ms", "10", "--lock-hold-ms", "30");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out.lines()).hasSize(3).allSatisfy(l -> assertThat(l)
                .contains("allocated_bytes: 2097152")
                .contains("known-path-caller>known-path-A>known-path-B>known-path-caller"));
        // The holder lets go of the monitor 30 ms after B arrives at it, however late that is, so
        // neither B's wait nor the request can be shorter than the hold.
        run.out.lines().forEach(l -> {
            assertThat(Long.parseLong(l.replaceAll(".*latency_us: (\\d+).*", "$1"))).isGreaterThanOrEqualTo(30_000);
            assertThat(Long.parseLong(l.replaceAll(".*b_blocked_us: (\\d+).*", "$1"))).isGreaterThanOrEqualTo(30_000);
        });
    }
}
