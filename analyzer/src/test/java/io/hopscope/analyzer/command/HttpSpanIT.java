package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.SampleServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30's self-time done-when: the pipeline sample against its server answering after 50 ms, under
 * the agent. The azure-core HttpClient's send is an {@code http} span holding the 50 ms, so the
 * innermost policy (AsyncOnlyPolicy, asynchronous: its span lasts until the response) keeps only its
 * own work as self time. By construction: every send waits at least 50 ms at the server, and is the
 * policy's child; the policy only sets a header, so its mean self time over the steady requests is
 * far under 10 ms (a warm-up request's includes its class loading).
 */
@Isolated("it bounds a policy's self time")
class HttpSpanIT {

    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"netty, sync-over-async", "netty, sync", "okhttp, sync", "jdk, sync"})
    void theSendHoldsTheNetworkWaitAndThePolicyOnlyItsOwnWork(String client, String mode) throws Exception {
        Paths.needBuiltJars();
        Path jfr = dir.resolve(client + ".jfr");
        List<String> command = Paths.shortJvm(Paths.java());
        command.addAll(List.of("-javaagent:" + Paths.agentJar() + "=jfr=" + jfr, "-jar", Paths.samplesJar().toString(),
                "pipeline", "--http-client", client, "--mode", mode, "--parallel", "1", "--delay-ms", "50", "--count", "30"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("run.log").toFile()).start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("run.log"))).isZero();

        // The steady requests: in a warm-up request the agent is still rewriting the classes it runs
        // through, so its first send may have no span yet (what this test checks is the steady state).
        Cli json = Cli.run("report", jfr.toString(), "--format", "json", "--warmup", "exclude");
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode all = new ObjectMapper().readTree(json.out()).get("requests");
        // The sample's server's requests (its other side): each holds the server's delay, from its
        // entry to the end of its delayed write.
        assertThat(SampleServer.servedIn(all)).isNotEmpty().allSatisfy(r ->
                assertThat(r.get("durationNanos").asLong()).as("served request %s", r.get("id")).isGreaterThanOrEqualTo(50 * MS));
        List<JsonNode> requests = SampleServer.calls(all);
        assertThat(requests).isNotEmpty();
        long steady = 0;
        long policySelfNanos = 0;
        for (JsonNode r : requests) {
            JsonNode http = policy(r, "http", null);
            JsonNode innermost = policy(r, "policy", ".AsyncOnlyPolicy");
            assertThat(http).as("the http span of request %s: %s", r.get("id"), r.get("policies")).isNotNull();
            assertThat(http.get("totalNanos").asLong()).isGreaterThanOrEqualTo(50 * MS);
            assertThat(innermost).as("AsyncOnlyPolicy's span of request %s", r.get("id")).isNotNull();
            assertThat(innermost.get("totalNanos").asLong()).isGreaterThanOrEqualTo(50 * MS);
            // Structure: the send is a child of the innermost policy's span (or of the sync send
            // that azure-core's default sendSync opens around it), whatever the timing.
            long policySpan = -1;
            for (JsonNode span : r.get("spans")) {
                if (span.get("name").asText().endsWith(".AsyncOnlyPolicy")) {
                    policySpan = span.get("spanId").asLong();
                }
            }
            long parent = policySpan;
            assertThat(r.get("spans")).as("request %s", r.get("id"))
                    .anySatisfy(span -> {
                        assertThat(span.get("kind").asText()).isEqualTo("http");
                        assertThat(span.get("parentSpanId").asLong()).isEqualTo(parent);
                    });
            if (!r.get("warmup").asBoolean()) { // a warm-up request's policy loads classes in its span
                steady++;
                policySelfNanos += innermost.get("selfNanos").asLong();
            }
        }
        // Without the http span the policy's self time would hold the server's 50 ms, every time; with
        // it, only its own work (a header), some 0.1 ms: the mean is well under 10 ms even on a busy machine.
        assertThat(steady).isPositive();
        assertThat(policySelfNanos / steady).isLessThan(10 * MS);
    }

    private static JsonNode policy(JsonNode request, String kind, String nameSuffix) {
        for (JsonNode policy : request.get("policies")) {
            if (policy.get("kind").asText().equals(kind)
                    && (nameSuffix == null || policy.get("name").asText().endsWith(nameSuffix))) {
                return policy;
            }
        }
        return null;
    }
}
