package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.SampleServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Issue 4's "done when", end to end: the samples run under the real agent on a separate JVM, the
 * recording goes through {@code report}. Needs the samples and agent jars, which the reactor builds
 * before this module; skipped (with the reason) when this module is built alone without them.
 */
@Isolated("the JDK throttles allocation samples per second")
class AgentRecordingIT {

    static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void knownPathShowsThreeHopsThreeThreadsAllocationOnAAndTheLockOnB() throws Exception {
        // lockstacks=true: the monitor enter's stack is checked below (the default records none).
        Path jfr = record("known-path", "requests=io.hopscope.samples.knownpath.KnownPath#request,lockstacks=true",
                "known-path", "--count", "6");
        List<JsonNode> requests = requests(jfr);
        assertThat(requests).hasSize(6);
        for (JsonNode r : requests) {
            assertThat(r.get("hops").asInt()).isEqualTo(3);
            assertThat(names(r.get("threads"))).containsExactlyInAnyOrder("known-path-caller", "known-path-A", "known-path-B");
            assertThat(thread(r, "known-path-A").get("allocatedBytes").asLong()).isGreaterThanOrEqualTo(1 << 20);
        }
        // The first request pays for class loading and instrumentation before B reaches the monitor,
        // so it may wait less than the agent's monitor-enter threshold; the others wait the full hold.
        List<JsonNode> later = requests.stream().filter(r -> r.get("id").asLong() > 1).toList();
        assertThat(later).isNotEmpty().allSatisfy(r -> {
            assertThat(r.get("lock").get("nanos").asLong()).isGreaterThanOrEqualTo(25 * MS);
            assertThat(r.get("lock").get("top").get(0).get("stack").toString()).contains("knownpath");
        });
    }

    @Test
    void okhttpSyncRunsOnOneThreadAndNettySyncOverAsyncHopsAndWakesBack() throws Exception {
        Path okhttp = record("okhttp", null, "pipeline", "--http-client", "okhttp", "--mode", "sync", "--count", "30");
        List<JsonNode> sync = SampleServer.calls(requests(okhttp));
        assertThat(sync).hasSizeGreaterThanOrEqualTo(30).allSatisfy(r -> {
            assertThat(r.get("hops").asInt()).isZero();
            assertThat(r.get("threads")).hasSize(1);
        });
        // The sample's server answered each call: an inbound request of its own, on its own threads.
        assertThat(SampleServer.servedIn(requests(okhttp))).hasSizeGreaterThanOrEqualTo(30).allSatisfy(r -> {
            assertThat(r.get("name").asText()).isEqualTo("GET /");
            assertThat(r.get("statusCode").asInt()).isEqualTo(200);
            assertThat(names(r.get("threads"))).allSatisfy(t -> assertThat(t).startsWith("sample-server"));
        });
        Path netty = record("netty", null, "pipeline", "--http-client", "netty", "--mode", "sync-over-async",
                "--count", "30");
        List<JsonNode> soa = SampleServer.calls(requests(netty));
        assertThat(soa).hasSizeGreaterThanOrEqualTo(30);
        // A response already there when block() is called is no wait, hence no wake: most, not all.
        long handoffAndWake = soa.stream().filter(r -> r.get("hops").asInt() >= 2
                && r.get("hopList").toString().contains("\"handoff\"") && r.get("hopList").toString().contains("\"wake\"")).count();
        assertThat(handoffAndWake).isGreaterThanOrEqualTo(soa.size() * 8L / 10);
        assertThat(soa).allSatisfy(r -> assertThat(r.get("threads").size()).isGreaterThanOrEqualTo(1));
    }

    /**
     * Done when: "jdk-http --mode sync reports its hops through the JDK client's threads": the
     * caller hands the exchange to the client's selector thread, the selector to the client's
     * executor (jdk-http-io-N), and an executor thread wakes the caller.
     */
    @Test
    void jdkHttpSyncHopsThroughTheClientsSelectorAndExecutorThreads() throws Exception {
        Path jfr = record("jdk-http", null, "jdk-http", "--mode", "sync", "--producers", "1", "--count", "30");
        List<JsonNode> requests = SampleServer.calls(requests(jfr));
        assertThat(requests).hasSizeGreaterThanOrEqualTo(30).allSatisfy(r -> {
            List<String> threads = names(r.get("threads"));
            assertThat(threads).contains("jdk-http-producer-1")
                    .anySatisfy(t -> assertThat(t).endsWith("-SelectorManager"))
                    .anySatisfy(t -> assertThat(t).startsWith("jdk-http-io-"));
            assertThat(r.get("hops").asInt()).isGreaterThanOrEqualTo(2);
            assertThat(r.get("hopList")).anySatisfy(h -> {
                assertThat(h.get("kind").asText()).isEqualTo("handoff");
                assertThat(h.get("from").get("name").asText()).isEqualTo("jdk-http-producer-1");
                assertThat(h.get("to").get("name").asText()).endsWith("-SelectorManager");
            }).anySatisfy(h -> {
                assertThat(h.get("kind").asText()).isEqualTo("handoff");
                assertThat(h.get("from").get("name").asText()).endsWith("-SelectorManager");
                assertThat(h.get("to").get("name").asText()).startsWith("jdk-http-io-");
            });
        });
        // A response already there when the caller would park is no wait, hence no wake: most, not all.
        long woken = requests.stream().filter(r -> r.get("hopList").toString().contains("\"wake\"")).count();
        assertThat(woken).isGreaterThan(requests.size() / 2L);
    }

    /**
     * Done when: "allocated bytes per request are consistent with the process's total allocation
     * divided by requests (within the share spent outside requests, which the summary reports)".
     * The process total is the sample's own {@code allocated_bytes} over its measured window (every
     * thread's allocation counter, the embedded server's too); the share outside requests is the
     * report's {@code outsideRequestsShare}, from the JDK's allocation samples over the whole
     * recording, JVM start-up included, so it is at least the window's share and
     * {@code total * (1 - share)} is a lower bound of the bytes inside requests, {@code total} an
     * upper one (plus 1%: the sample's counters and the agent's are read at different instants).
     * The embedded server's requests are requests too (each call's other side, named by path alone):
     * the bytes in requests are the calls' and the server's, divided by the calls.
     * Then the exact in-request bytes (the agent's per-segment counters) against the JDK's own
     * estimate of them (sample weights whose sample falls in a request segment). The estimate leans
     * high: each sample carries every byte its thread allocated since its previous one, and the
     * caller threads allocate between requests too (the sample's loop builds each request and
     * checks each response outside the boundary), so a sample taken in a request also carries bytes
     * from before it. So the exact bytes may not exceed the estimate by more than its noise (the JDK
     * throttles samples to 150/s): at most 1.5 times; and may fall below it by that bias: at least a
     * third. The run is long enough for that noise to fit: at 1,000 requests a run takes well under
     * the JVM's first seconds, a few dozen samples fall inside requests, and the ratio ranged from
     * 0.52 to 1.82 (a clean-clone CI run failed on the 1.82); at 10,000 it was 0.93 to 1.22 in three
     * runs of each client (session 7). Earlier: 0.95 to 1.24 on runs of 1,500 to 3,000 requests in
     * session 1, and 0.53 to 0.58 in later runs of 1,000 on a quiet machine.
     */
    @Test
    void allocatedBytesPerRequestMatchTheProcessTotalWithinTheShareOutsideRequests() throws Exception {
        for (String[] client : List.of(new String[] {"okhttp", "sync"}, new String[] {"netty", "sync-over-async"})) {
            String label = "alloc-" + client[0];
            // The JVM's defaults: the JDK's samples are throttled per second, so the bound above holds for
            // a run as long as C2's; C1 alone (Paths.shortJvmFlags) ends it sooner, with fewer samples,
            // and its ratio left the bound (1.77).
            Path jfr = record(List.of(Paths.java().toString()), label, null, "pipeline", "--http-client", client[0],
                    "--mode", client[1], "--parallel", "2", "--count", "10000");
            String log = Files.readString(dir.resolve(label + ".log"));
            long ops = figure(log, "ops");
            long processBytes = figure(log, "allocated_bytes");
            assertThat(log).contains("allocated_bytes_method: total");

            Cli r = Cli.run("report", jfr.toString(), "--format", "json", "--top", "0");
            assertThat(r.exitCode()).as(r.err()).isZero();
            JsonNode report = new ObjectMapper().readTree(r.out());
            // The calls: the sample's server's requests (each call's other side, named by path alone)
            // are requests too, and their bytes in requests as well.
            long requests = 0;
            for (JsonNode s : report.get("summary")) {
                if (!SampleServer.servedName(s.get("name").asText())) {
                    requests += s.get("count").asLong();
                }
            }
            JsonNode alloc = report.get("recording").get("allocation");
            long inRequests = alloc.get("requestsBytes").asLong();
            double outsideShare = alloc.get("outsideRequestsShare").asDouble();
            String figures = client[0] + ": " + ops + " ops, " + processBytes + " bytes allocated by the process, "
                    + requests + " requests, " + alloc;

            assertThat(requests).as(figures).isEqualTo(ops);
            assertThat(outsideShare).as(figures).isBetween(0.0, 1.0);
            double perOp = processBytes / (double) ops;
            double perRequest = inRequests / (double) requests;
            assertThat(perRequest).as(figures).isLessThanOrEqualTo(perOp * 1.01)
                    .isGreaterThanOrEqualTo(perOp * (1 - outsideShare));
            double exactOverSampled = inRequests / (double) alloc.get("sampledBytesInRequests").asLong();
            System.out.printf("%s; exact/sampled in requests %.2f%n", figures, exactOverSampled);
            assertThat(exactOverSampled).as(figures).isBetween(1 / 3.0, 1.5);
        }
    }

    static long figure(String sampleOutput, String key) {
        for (String line : sampleOutput.split("\\R")) {
            if (line.startsWith(key + ": ")) {
                return Long.parseLong(line.substring(key.length() + 2).trim());
            }
        }
        throw new AssertionError("no " + key + " in the sample's output:\n" + sampleOutput);
    }

    Path record(String label, String agentOptions, String... sampleArgs) throws Exception {
        return record(Paths.shortJvm(Paths.java()), label, agentOptions, sampleArgs);
    }

    /** Runs the samples jar under the agent on {@code jvm} (java and its flags); the recording. */
    Path record(List<String> jvm, String label, String agentOptions, String... sampleArgs) throws Exception {
        Path samples = Paths.moduleDir().resolve("../samples/target/hopscope-samples.jar").normalize();
        Path agent = Paths.moduleDir().resolve("../agent/target/hopscope-agent.jar").normalize();
        Paths.needJars(samples, agent);
        Path jfr = dir.resolve(label + ".jfr");
        List<String> cmd = new ArrayList<>(jvm);
        cmd.addAll(List.of("-javaagent:" + agent + "=jfr=" + jfr + (agentOptions != null ? "," + agentOptions : ""),
                "-jar", samples.toString()));
        cmd.addAll(List.of(sampleArgs));
        Path log = dir.resolve(label + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(log)).isZero();
        return jfr;
    }

    static List<JsonNode> requests(Path jfr) throws Exception {
        Cli r = Cli.run("report", jfr.toString(), "--format", "json", "--sort", "start", "--top", "all");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<JsonNode> list = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).get("requests").forEach(list::add);
        return list;
    }

    static List<String> names(JsonNode threads) {
        List<String> names = new ArrayList<>();
        threads.forEach(t -> names.add(t.get("name").asText()));
        return names;
    }

    static JsonNode thread(JsonNode request, String name) {
        for (JsonNode t : request.get("threads")) {
            if (name.equals(t.get("name").asText())) {
                return t;
            }
        }
        throw new AssertionError("no thread " + name + " in " + request);
    }
}
