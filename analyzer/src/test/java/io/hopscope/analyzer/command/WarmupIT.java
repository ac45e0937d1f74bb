package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Issue 30's warm-up done-when: a real application under the agent ({@code WarmupApp.java}, whose
 * first request loads 500 classes and whose 20 others load none) shows that request as warm-up with
 * the count, kept apart from the worst list by default, ranked with the rest by
 * {@code --warmup include}, and left out by {@code --warmup exclude}.
 */
@Isolated("its warm-up request count follows the JIT's timing")
class WarmupIT {

    @TempDir
    Path dir;

    @Test
    void theRequestThatLoadedClassesIsWarmupAndTheWorstListStartsAfterIt() throws Exception {
        Paths.needBuiltJars();
        Path jfr = dir.resolve("warmup.jfr");
        Path app = Paths.moduleDir().resolve("src/test/resources/warmup/WarmupApp.java");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + Paths.agentJar() + "=jfr=" + jfr + ",requests=WarmupApp#call", app.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("app.log").toFile()).start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("app.log"))).isZero();

        Cli json = Cli.run("report", jfr.toString(), "--format", "json", "--top", "5", "--sample", "0", "--warmup", "apart");
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertThat(root.get("warmup").asText()).isEqualTo("apart");
        JsonNode summary = root.get("summary").get(0);
        assertThat(summary.get("name").asText()).isEqualTo("WarmupApp#call");
        assertThat(summary.get("count").asInt()).isEqualTo(21);
        assertThat(summary.get("warmupRequests").asInt()).isBetween(1, 21);
        // The first request (the lowest id) loaded Leaf in 500 loaders: each is a class the agent saw.
        JsonNode first = null;
        for (JsonNode r : root.get("warmupRequests")) {
            if (first == null || r.get("id").asLong() < first.get("id").asLong()) {
                first = r;
            }
        }
        assertThat(first).as("the warm-up list").isNotNull();
        assertThat(first.get("id").asLong()).isEqualTo(1);
        assertThat(first.get("warmup").asBoolean()).isTrue();
        assertThat(first.get("agentWork").get("classes").asLong()).isGreaterThanOrEqualTo(500);
        assertThat(first.get("agentWork").get("nanos").asLong()).isPositive();
        assertThat(first.get("agentWork").get("allocatedBytes").asLong()).isPositive();
        // The default worst list ranks the steady requests only: it starts after the warm-up one.
        assertThat(root.get("requests")).hasSize(5).allSatisfy(r -> {
            assertThat(r.get("warmup").asBoolean()).isFalse();
            assertThat(r.get("id").asLong()).isNotEqualTo(1);
        });

        Cli text = Cli.run("report", jfr.toString());
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains("worst 5 steady request(s) by duration (warm-up requests apart")
                .contains("warm-up of WarmupApp#call: ")
                .containsPattern("#1 request 1  WarmupApp#call  ok  .*  warm-up\n")
                .containsPattern("  warm-up: waited on \\d+ class load\\(s\\), ")
                .containsPattern("  agent: .* transforming \\d+ class\\(es\\).*, not counted above");

        // The page ranks its worst the same way: the warm-up request in its own list, not among them.
        Cli html = Cli.run("report", jfr.toString(), "--format", "html");
        assertThat(html.exitCode()).as(html.err()).isZero();
        JsonNode page = ReportHtmlKernelTest.data(html.out());
        assertThat(page.get("warmupApart").asBoolean()).isTrue();
        assertThat(page.get("requests")).isNotEmpty().allSatisfy(r -> assertThat(r.get("id").asLong()).isNotEqualTo(1));
        assertThat(page.get("warmupRequests")).anySatisfy(r -> assertThat(r.get("id").asLong()).isEqualTo(1));

        Cli include = Cli.run("report", jfr.toString(), "--format", "json", "--top", "21", "--warmup", "include");
        assertThat(include.exitCode()).as(include.err()).isZero();
        JsonNode all = new ObjectMapper().readTree(include.out());
        assertThat(all.get("warmupRequests")).isEmpty();
        List<Long> ids = new ArrayList<>();
        all.get("requests").forEach(r -> ids.add(r.get("id").asLong()));
        assertThat(ids).hasSize(21).contains(1L);

        Cli exclude = Cli.run("report", jfr.toString(), "--format", "json", "--warmup", "exclude");
        assertThat(exclude.exitCode()).as(exclude.err()).isZero();
        JsonNode steady = new ObjectMapper().readTree(exclude.out());
        long warmups = summary.get("warmupRequests").asLong();
        assertThat(steady.get("summary").get(0).get("count").asLong()).isEqualTo(21 - warmups);
        assertThat(steady.get("requests")).noneSatisfy(r -> assertThat(r.get("warmup").asBoolean()).isTrue());
        assertThat(steady.get("recording").get("warnings").toString()).contains(warmups + " warm-up request(s)");

        Cli bad = Cli.run("report", jfr.toString(), "--warmup", "sometimes");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("--warmup").doesNotContain("Exception");
    }
}
