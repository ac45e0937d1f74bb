package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real recording from another JDK's JVM (a separate process running {@code Tiny.java} with
 * {@code -XX:StartFlightRecording}) read by {@code report}: the file format of the second JDK (21+)
 * as the analyzer on JDK 17 meets it.
 */
class OtherJdkRecordingIT {

    @TempDir
    Path dir;

    /**
     * The second JDK (21+: Tiny starts a virtual thread) in HOPSCOPE_JDK2, which `make test` sets
     * from scripts/second-jdk.sh; skipped without one, except under CI=true, where it fails.
     */
    @Test
    void reportReadsTheRecording() throws Exception {
        Path java = Paths.secondJava();
        Path tiny = Paths.moduleDir().resolve("src/test/resources/java25/Tiny.java");
        Path jfr = dir.resolve("tiny.jfr");
        Process p = new ProcessBuilder(java.toString(), "-XX:StartFlightRecording=filename=" + jfr + ",settings=profile",
                tiny.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("tiny.log").toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("tiny.log"))).isZero();

        Cli r = Cli.run("report", jfr.toString(), "--format", "json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertThat(root.get("summary").get(0).get("name").asText()).isEqualTo("GET 127.0.0.1/tiny");
        assertThat(root.get("summary").get(0).get("count").asInt()).isEqualTo(5);
        assertThat(root.get("requests")).hasSize(5).allSatisfy(req -> {
            assertThat(req.get("hops").asInt()).isEqualTo(1);
            assertThat(req.get("threads")).hasSize(2);
            JsonNode to = req.get("hopList").get(0).get("to");
            if (req.get("id").asLong() < 5) {
                assertThat(req.get("allocatedBytes").asLong()).isEqualTo(192 * 1024);
                assertThat(req.get("estimatedAllocatedBytes").asLong()).isZero();
                assertThat(to.get("name").asText()).startsWith("tiny-worker-");
                assertThat(to.get("virtual").asBoolean()).isFalse();
            } else {
                // An unnamed virtual thread: its own Java id, no name, no OS thread; no allocation
                // counter either, so its 2 MiB are estimated from the JDK's allocation samples.
                assertThat(to.get("virtual").asBoolean()).isTrue();
                assertThat(to.get("name").asText()).isEmpty();
                assertThat(to.get("javaId").asLong()).isPositive();
                long estimated = req.get("estimatedAllocatedBytes").asLong();
                assertThat(estimated).isPositive();
                assertThat(req.get("allocatedBytes").asLong()).isEqualTo(64 * 1024 + estimated);
            }
        });
        long virtualId = root.get("requests").findValues("to").stream().filter(t -> t.get("virtual").asBoolean())
                .findFirst().orElseThrow().get("javaId").asLong();
        Cli text = Cli.run("report", jfr.toString(), "--top", "5");
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains("-> virtual#" + virtualId + " ").doesNotContain("tid 0")
                .contains("estimated from allocation samples (virtual threads have no allocation counter)");
        // The JDK's own events of that format are read too: System.gc() made at least one collection.
        assertThat(root.get("recording").get("gc").get("count").asLong()).isPositive();
        assertThat(root.get("recording").get("jdkEvents").asLong()).isPositive();
    }
}
