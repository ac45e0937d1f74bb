package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.TraceSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 6's done-when on the demo's two real recordings (agent, samples, embedded server; 1 s a run):
 * {@code flame --kind hops} shows the event-loop threads for Netty sync-over-async and none for OkHttp
 * sync; {@code trace} of the Netty run has arrows from the callers to the event loop and back. Needs
 * the samples and agent jars (built by the reactor first); skipped with the reason when absent.
 */
class PicturesDemoIT {

    @TempDir
    Path dir;

    @Test
    void hopsAndTraceOfTheDemoRuns() throws Exception {
        Path home = Paths.moduleDir().getParent();
        assumeTrue(Files.isRegularFile(home.resolve(DemoCommand.SAMPLES_JAR))
                && Files.isRegularFile(home.resolve(DemoCommand.AGENT_JAR)), "needs the samples and agent jars");
        Path out = dir.resolve("demo");
        Cli demo = Cli.run("demo", "--home", home.toString(), "--dir", out.toString(), "--duration", "1", "--parallel", "1");
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        Path netty = out.resolve("netty-sync-over-async.jfr");
        Path okhttp = out.resolve("okhttp-sync.jfr");

        Cli nettyHops = Cli.run("flame", netty.toString(), "--kind", "hops", "--format", "folded");
        assertThat(nettyHops.exitCode()).as(nettyHops.err()).isZero();
        assertThat(nettyHops.out()).contains(";pool reactor-http-epoll;reactor-http-epoll-");
        Cli okhttpHops = Cli.run("flame", okhttp.toString(), "--kind", "hops", "--format", "folded");
        assertThat(okhttpHops.exitCode()).as(okhttpHops.err()).isZero();
        assertThat(okhttpHops.out()).contains(";pool pipeline-caller;pipeline-caller-").doesNotContain("epoll")
                .doesNotContain("queue delay").doesNotContain("wake latency");

        Path trace = dir.resolve("netty-trace.json");
        Cli t = Cli.run("trace", netty.toString(), "-o", trace.toString());
        assertThat(t.exitCode()).as(t.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(trace.toFile());
        assertThat(TraceSchema.check(json)).isEmpty();
        Map<Long, String> names = new HashMap<>();
        Map<Long, Long> startTid = new HashMap<>();
        for (JsonNode e : json.get("traceEvents")) {
            if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name")) {
                names.put(e.get("tid").asLong(), e.get("args").get("name").asText());
            } else if (e.get("ph").asText().equals("s")) {
                startTid.put(e.get("id").asLong(), e.get("tid").asLong());
            }
        }
        Set<String> arrows = new HashSet<>();
        for (JsonNode e : json.get("traceEvents")) {
            if (e.get("ph").asText().equals("f")) {
                String from = pool(names.get(startTid.get(e.get("id").asLong())));
                arrows.add(from + " -> " + pool(names.get(e.get("tid").asLong())) + " " + e.get("name").asText().replaceAll(".* ", ""));
            }
        }
        assertThat(arrows).contains("pipeline-caller -> reactor-http-epoll handoff", "reactor-http-epoll -> pipeline-caller wake");
    }

    private static String pool(String thread) {
        return thread.replaceAll("-\\d+$", "");
    }
}
