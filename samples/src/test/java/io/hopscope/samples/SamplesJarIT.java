package io.hopscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The shaded jar as users run it: a separate JVM that must exit on its own when a run is over. */
class SamplesJarIT {

    private static final Path JAR = JarRun.JAR;
    private static final String JAVA = JarRun.JAVA;

    private static JarRun run(long timeoutS, String... args) throws Exception {
        return JarRun.run(timeoutS, args);
    }

    @Test
    void badOptionIsOneLineWithoutStackTrace() throws Exception {
        JarRun r = run(30, "pipeline", "--mode", "nope");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("pipeline: --mode must be sync or sync-over-async, got 'nope'");
    }

    @Test
    void knownPathRunsThreeRequestsAndExits() throws Exception {
        JarRun r = run(30, "known-path", "--count", "3");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines()).hasSize(3).allMatch(l -> l.startsWith("request: "));
    }

    @Test
    void pipelineOverNettyExitsPromptlyAfterItsRun() throws Exception {
        long start = System.nanoTime();
        JarRun r = run(60, "pipeline", "--mode", "sync-over-async", "--http-client", "netty", "--parallel", "2",
                "--duration", "1");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("ops_per_s: ", "latency_p99_us: ", "gc_count: ", "peak_threads: ");
        assertThat((System.nanoTime() - start) / 1_000_000_000L).isLessThan(30);
    }

    @Test
    void openLoopWithBlockedThreadsStillExits() throws Exception {
        // Requests outstanding at the end (10 s delay, far past the 2 s run even when a loaded
        // machine makes the last tick late) hold blocked threads: the JVM must exit anyway.
        JarRun r = run(60, "open-loop", "--mode", "sync-over-async", "--rps", "50", "--duration", "2",
                "--delay-ms", "10000");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines().filter(l -> l.startsWith("second="))).hasSize(2);
        assertThat(r.out()).containsPattern("# done requests=\\d+ responses=0 failed=0 outstanding=\\d+");
    }

    @Test
    void serverPrintsItsEphemeralPortAndServes() throws Exception {
        Process p = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "server", "--port", "0", "--size", "123")
                .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            Matcher m = Pattern.compile("listening on (http://127\\.0\\.0\\.1:(\\d+))").matcher(String.valueOf(line));
            assertThat(m.matches()).as("first line: %s", line).isTrue();
            HttpResponse<byte[]> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(m.group(1) + "/")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).hasSize(123);
        } catch (IOException e) {
            throw new AssertionError(e);
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
