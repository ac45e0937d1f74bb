package io.hopscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
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
        assertThat(Double.parseDouble(run.figure("measured_s"))).as(run.toString()).isBetween(1.9, 5.0);
    }

    @Test
    void pipelineFirstWindowCountsTheWarmup() {
        Run run = Run.of("pipeline", "--parallel", "2", "--first-window", "1", "--warmup", "1.5", "--duration", "1");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(Double.parseDouble(run.figure("first_window_s"))).as(run.toString()).isBetween(0.99, 1.5);
        assertThat(Long.parseLong(run.figure("first_window_ops"))).as(run.toString()).isPositive();
        assertThat(Double.parseDouble(run.figure("first_window_ops_per_s"))).as(run.toString()).isPositive();
        assertThat(Double.parseDouble(run.figure("first_window_cpu_us_per_op"))).as(run.toString()).isPositive();
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

    @Test
    void openLoopPrintsOneLinePerSecondAndEveryResponseArrives() {
        for (String mode : new String[] {"async", "sync-over-async", "okhttp-sync"}) {
            Run run = Run.of("open-loop", "--mode", mode, "--rps", "50", "--duration", "2", "--delay-ms", "200");

            assertThat(run.exitCode).as(run.toString()).isZero();
            assertThat(run.out.lines().filter(l -> l.startsWith("second="))).as(run.toString()).hasSize(2);
            // 50 rps for 2 s with a 200 ms delay: about 100 sent (more if the last tick is late, fewer
            // when a loaded machine holds up the sender: 79 at load 20); the last ~10 are still
            // outstanding, and a busy machine can hold up the first answers, so at least half answered.
            String done = run.out.lines().filter(l -> l.startsWith("# done")).findFirst().orElseThrow();
            long requests = Long.parseLong(done.replaceAll(".*requests=(\\d+).*", "$1"));
            long responses = Long.parseLong(done.replaceAll(".*responses=(\\d+).*", "$1"));
            assertThat(requests).as(run.toString()).isBetween(40L, 150L);
            assertThat(responses).as(run.toString()).isBetween(requests / 2, requests);
            assertThat(done).contains("outstanding=" + (requests - responses));
            assertThat(done).contains("failed=0");
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
