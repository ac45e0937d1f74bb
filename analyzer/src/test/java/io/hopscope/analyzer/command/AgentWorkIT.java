package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's own work on a Netty sync-over-async run of the pipeline sample on the second JDK: no
 * request shows an allocation site in the agent's package, and the agent's share is reported apart
 * with its figures. The same on the demo's runs (JDK 17), with whole stacks: {@link DemoIT}.
 */
class AgentWorkIT {

    @TempDir
    Path dir;

    @Test
    void aNettyRunOnTheSecondJdkShowsTheAgentsWorkApart() throws Exception {
        Path java = Paths.secondJava();
        Paths.needBuiltJars();
        Path jfr = dir.resolve("netty25.jfr");
        List<String> command = Paths.shortJvm(java);
        command.addAll(List.of("-javaagent:" + Paths.agentJar() + "=jfr=" + jfr, "-jar", Paths.samplesJar().toString(),
                "pipeline", "--http-client", "netty", "--mode", "sync-over-async", "--callers", "platform",
                "--parallel", "1", "--warmup", "0", "--duration", "1"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("run.log").toFile()).start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("run.log"))).isZero();
        assertAgentWorkApart(jfr);
    }

    /**
     * The first request of a run loads Reactor's and Netty's classes on its threads (nothing loads
     * them before), so the agent's work is there by construction; its figures appear apart, and no
     * request, warm-up or not, names a site of the agent's.
     */
    static void assertAgentWorkApart(Path jfr) throws Exception {
        Cli json = Cli.run("report", jfr.toString(), "--format", "json");
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(json.out());
        JsonNode agent = root.get("agentWork");
        assertThat(agent.get("classes").asLong()).isPositive();
        assertThat(agent.get("nanos").asLong()).isPositive();
        assertThat(agent.get("allocatedBytes").asLong()).isPositive();
        assertThat(root.get("summary").get(0).get("agentWork").get("classes").asLong()).isPositive();
        assertThat(root.get("requests")).isNotEmpty().allSatisfy(r -> assertThat(r.get("allocationSites"))
                .noneSatisfy(site -> assertThat(site.get("frame").asText()).startsWith("io.hopscope.agent.")));
        assertThat(root.get("requests")).anySatisfy(r -> {
            assertThat(r.get("warmup").asBoolean()).isTrue();
            assertThat(r.get("agentWork").get("classes").asLong()).isPositive();
        });

        Cli text = Cli.run("report", jfr.toString(), "--top", "1");
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).containsPattern("\nagent: .* transforming \\d+ class\\(es\\).* on the requests' threads")
                .containsPattern("\\n  agent: .* transforming \\d+ class\\(es\\).*, not counted above")
                .doesNotContainPattern("top sampled sites: [^\\n]*io\\.hopscope\\.agent\\.");
    }
}
