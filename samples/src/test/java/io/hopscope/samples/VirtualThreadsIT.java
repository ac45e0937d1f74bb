package io.hopscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The virtual-thread modes on the second JDK (21+) in HOPSCOPE_JDK2, which `make test` sets from
 * scripts/second-jdk.sh: skipped without one, except under CI=true, where it fails. Each run says
 * which threads its requests really ran on, and open-loop how many platform threads were alive.
 */
@Isolated("its checks follow the scheduler's timing")
class VirtualThreadsIT {

    private static final Pattern SECOND = Pattern.compile(
            "second=(\\d+) requests=(\\d+) responses=(\\d+) outstanding=(\\d+) .* threads=(\\d+)");
    private static final Pattern DONE = Pattern.compile(
            "# done requests=(\\d+) responses=(\\d+) failed=(\\d+) outstanding=(\\d+)");

    private static String java;

    @BeforeAll
    static void secondJdk() {
        String home = System.getenv("HOPSCOPE_JDK2");
        Path bin = home == null || home.isEmpty() ? null : Path.of(home, "bin", "java");
        CiSkip.unless(bin != null && Files.isExecutable(bin), "no second JDK (21+) in HOPSCOPE_JDK2"
                + " (scripts/second-jdk.sh --install); HOPSCOPE_JDK2=" + home);
        java = bin.toString();
    }

    @Test
    void openLoopVirtualSyncAnswersOnVirtualThreads() throws Exception {
        JarRun r = JarRun.on(java, 60, "open-loop", "--mode", "virtual-sync", "--rps", "50", "--duration", "2",
                "--delay-ms", "200");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<long[]> seconds = seconds(r);
        assertThat(seconds).as(r.toString()).hasSize(2);
        long[] done = done(r);
        // Every request of the first second (200 ms each) is answered by the end of the second.
        assertThat(done[1]).as(r.toString()).isGreaterThanOrEqualTo(seconds.get(0)[1]).isPositive();
        assertThat(done[2]).as(r.toString()).isZero();
        assertThat(done[3]).as(r.toString()).isEqualTo(done[0] - done[1]);
        assertThat(seconds).as(r.toString()).allSatisfy(s -> assertThat(s[4]).isLessThan(50));
        assertThat(r.out()).containsPattern("(?m)^# first request thread=open-loop-virtual-\\d+ kind=virtual$");
    }

    @Test
    void openLoopVirtualSyncHoldsRequestsWithoutPlatformThreads() throws Exception {
        // 3 s a request at 100 a second: about 200 outstanding by the last line. As platform threads
        // (okhttp-sync) that is 200 more live threads; as virtual threads it is none.
        JarRun r = JarRun.on(java, 60, "open-loop", "--mode", "virtual-sync", "--rps", "100", "--duration", "2",
                "--delay-ms", "3000");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        long[] last = seconds(r).get(1);
        assertThat(last[3]).as(r.toString()).isGreaterThanOrEqualTo(150);
        assertThat(last[4]).as(r.toString()).isLessThan(60);
        assertThat(done(r)[2]).as(r.toString()).isZero();
    }

    @Test
    void pipelineCallersAreVirtualThreadsOfTheSameNames() throws Exception {
        JarRun r = JarRun.on(java, 60, "pipeline", "--callers", "virtual", "--http-client", "okhttp", "--parallel", "3",
                "--count", "60");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(figure(r, "ops")).isEqualTo("60");
        assertThat(figure(r, "callers")).isEqualTo("virtual");
        assertThat(figure(r, "caller_threads"))
                .isEqualTo("pipeline-caller-1 (virtual), pipeline-caller-2 (virtual), pipeline-caller-3 (virtual)");
    }

    @Test
    void jdkHttpSyncProducersAreVirtualThreads() throws Exception {
        JarRun r = JarRun.on(java, 60, "jdk-http", "--mode", "sync", "--callers", "virtual", "--producers", "2",
                "--count", "40");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(figure(r, "ops")).isEqualTo("40");
        assertThat(figure(r, "caller_threads")).isEqualTo("jdk-http-producer-1 (virtual), jdk-http-producer-2 (virtual)");
    }

    @Test
    void serveVirtualRunsEachRequestOnAVirtualThread(@TempDir Path dir) throws Exception {
        Path requests = dir.resolve("requests.tsv");

        JarRun r = JarRun.on(java, 120, ServeRunsTest.args("virtual", requests));

        assertThat(r.exitCode()).as(r.toString()).isZero();
        ServeRunsTest.checkFigures(key -> figure(r, key), "virtual", "virtual", r.toString());
        ServeRunsTest.checkRequestsFile(requests);
    }

    /** Each per-second line as {second, requests, responses, outstanding, threads}. */
    private static List<long[]> seconds(JarRun r) {
        return r.out().lines().map(SECOND::matcher).filter(Matcher::find)
                .map(m -> new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                        Long.parseLong(m.group(4)), Long.parseLong(m.group(5))})
                .collect(Collectors.toList());
    }

    /** The last line as {requests, responses, failed, outstanding}. */
    private static long[] done(JarRun r) {
        Matcher m = DONE.matcher(r.out());
        assertThat(m.find()).as(r.toString()).isTrue();
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4))};
    }

    private static String figure(JarRun r, String key) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(key) + ": (.*)$").matcher(r.out());
        assertThat(m.find()).as("no '%s:' line in %s", key, r).isTrue();
        return m.group(1).trim();
    }
}
