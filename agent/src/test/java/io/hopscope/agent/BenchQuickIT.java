package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.agent.testing.SamplesJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The samples' {@code bench --quick} on the built jars, the way the lead runs it: one JVM without
 * and one with this agent, two rounds, JSON and the markdown section written. Here and not in the
 * samples module because the reactor builds the samples first: only here is the agent jar of this
 * build there to run. A whole benchmark (about three minutes): tagged slow, it runs once, in the
 * slow-tests profile that .ci/run turns on, not in every {@code mvn verify}.
 */
@Tag("slow")
@Isolated("its figures are throughput and CPU on this machine")
class BenchQuickIT {

    private static final long TIMEOUT_S = 170;

    @Test
    void quickBenchWritesItsTableJsonAndMarkdownSection() throws Exception {
        Path work = Files.createDirectories(Path.of(System.getProperty("hopscope.work", "target/it-work")))
                .resolve("bench-quick");
        Files.createDirectories(work);
        Path json = work.resolve("bench.json");
        Path markdown = work.resolve("performance.md");
        Files.deleteIfExists(json);
        Files.writeString(markdown, "# Performance\n\nbefore\n<!-- bench:begin -->\nold\n<!-- bench:end -->\nafter\n");
        Path readme = work.resolve("README.md");
        Files.writeString(readme, "## Performance\n<!-- bench-summary:begin -->\nold\n<!-- bench-summary:end -->\nmore\n");
        String agentJar = Path.of(System.getProperty("hopscope.agent.jar", "target/hopscope-agent.jar")).toAbsolutePath().toString();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", SamplesJar.path().toString(), "bench", "--quick", "--agent", agentJar,
                "--json", json.toString(), "--markdown", markdown.toString(), "--readme", readme.toString(), "--work", work.resolve("runs").toString()));
        Path out = work.resolve("stdout.txt");
        Path err = work.resolve("stderr.txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean exited = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        String stdout = Files.readString(out);
        String stderr = Files.readString(err);
        assertThat(exited).as("bench --quick ended within %d s; stderr: %s", TIMEOUT_S, stderr).isTrue();
        assertThat(p.exitValue()).as(stderr).isZero();

        assertThat(stdout).containsPattern("(?m)^okhttp-sync-1k\\s+none\\s+1\\.000 \\(1\\.000-1\\.000\\)")
                .containsPattern("(?m)^okhttp-sync-1k\\s+hopscope\\s+\\d\\.\\d{3} \\(")
                .contains("targets:", "load average before: ");

        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.path("command").asText()).startsWith("java -jar samples/target/hopscope-samples.jar bench --quick");
        assertThat(root.path("machine").path("cores").asInt()).isPositive();
        assertThat(root.path("machine").path("load_after").asText()).matches("[\\d.]+ [\\d.]+ [\\d.]+");
        assertThat(root.path("settings").path("rounds").asInt()).isEqualTo(2);
        JsonNode rows = root.path("rows");
        assertThat(rows.size()).isEqualTo(2);
        assertThat(rows.get(0).path("config").asText()).isEqualTo("none");
        JsonNode agent = rows.get(1);
        assertThat(agent.path("config").asText()).isEqualTo("hopscope");
        assertThat(agent.path("workload").asText()).isEqualTo("okhttp-sync-1k");
        assertThat(agent.path("not_measured").isNull()).as(agent.toString()).isTrue();
        JsonNode summary = agent.path("summary");
        assertThat(summary.path("throughput_ratio").path("median").asDouble()).isPositive();
        assertThat(summary.path("throughput_ratio").path("rounds").asInt()).isEqualTo(2);
        assertThat(summary.path("cpu_us_per_op_added").isNumber()).as(summary.toString()).isTrue();
        assertThat(summary.path("latency_p99_ratio").asDouble()).isPositive();
        assertThat(summary.path("allocated_bytes_per_op").asDouble()).isPositive();
        assertThat(summary.has("first_window_ratio")).isTrue();
        assertThat(agent.path("rounds").size()).isEqualTo(2);
        for (JsonNode round : agent.path("rounds")) {
            assertThat(round.path("figures").path("ops_per_s").asDouble()).as(round.toString()).isPositive();
            assertThat(round.path("figures").has("first_window_ops_per_s")).as(round.toString()).isTrue();
            assertThat(round.path("figures").has("cpu_us_per_op")).isTrue();
        }
        assertThat(root.path("analyzer").path("not_measured").asText()).isEqualTo("skipped by --quick");
        assertThat(root.path("tracer").path("not_measured").asText()).isEqualTo("skipped by --quick");
        List<String> targets = new ArrayList<>();
        for (JsonNode t : root.path("targets")) {
            assertThat(t.path("status").asText()).matches("met|not met by .+|not measured: .+");
            targets.add(t.path("target").asText() + ": " + t.path("status").asText());
        }
        assertThat(targets).contains("agent CPU added per request <= OTel's: not measured: otel not in --configs")
                .anyMatch(t -> t.startsWith("agent first-window throughput ratio: "));

        String md = Files.readString(markdown);
        assertThat(md).startsWith("# Performance\n\nbefore\n<!-- bench:begin -->\n").endsWith("<!-- bench:end -->\nafter\n")
                .doesNotContain("\nold\n");
        String section = md.substring(md.indexOf("<!-- bench:begin -->"), md.indexOf("<!-- bench:end -->"));
        assertThat(section).contains("| workload | config | throughput x (min-max) |")
                .containsPattern("\\| okhttp-sync-1k \\| hopscope \\| \\d\\.\\d{3} ")
                .contains("bench --quick", "load average before: ", "| target | row | measured | target | status |");

        String shortForm = Files.readString(readme);
        assertThat(shortForm).startsWith("## Performance\n<!-- bench-summary:begin -->\n").endsWith("<!-- bench-summary:end -->\nmore\n")
                .doesNotContain("\nold\n")
                // --quick has no otel row: its cells are dashes, hopscope's are figures.
                .containsPattern("\\| okhttp-sync-1k \\| \\d\\.\\d{3} \\| \\d\\.\\d{3} \\| [+-]\\d+\\.\\d us \\| - \\| - \\| - \\|")
                .containsPattern("Targets: \\d+ met, \\d+ not met, \\d+ not measured")
                // as many "not measured" as the JSON's targets say (--quick skips the analyzer, tracer and otel rows)
                .contains(" " + targets.stream().filter(t -> t.contains(": not measured: ")).count() + " not measured (")
                .contains("bench --quick");
    }
}
