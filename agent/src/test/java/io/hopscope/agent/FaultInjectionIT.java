package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.SamplesJar;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sample workloads (every scenario, both pipeline modes with each client, both JDK client
 * modes, the open loop) under the agent with -Dhopscope.test.faults=all, where every hook the Bridge
 * calls throws, and =after, where each throws once the runtime has done its work (so a request
 * entered loses its token, a wait registered is never ended): each sample still exits 0 (it validates every response and exits 1 on a wrong one),
 * and the agent counts the failures as AgentError events per instrumentation and prints one
 * stderr line per instrumentation, not one per failure.
 */
class FaultInjectionIT {

    private static final String COUNT = "20";
    private static final Pattern FAILED = Pattern.compile("hopscope: instrumentation (\\S+) failed \\(.*");

    @BeforeAll
    static void samplesAreBuilt() {
        assumeThat(SamplesJar.has("io/hopscope/samples/pipeline/PipelineCommand.class"))
                .as("samples jar at %s", SamplesJar.path()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "after"})
    void pipelineOkHttpSync(String faults) throws Exception {
        check(faults, "jfr=%JFR%", List.of("pipeline", "--mode", "sync", "--http-client", "okhttp", "--parallel", "2",
                "--count", COUNT), "boundaries", "spans");
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "after"})
    void pipelineNettySyncOverAsync(String faults) throws Exception {
        check(faults, "jfr=%JFR%", List.of("pipeline", "--mode", "sync-over-async", "--http-client", "netty", "--parallel",
                "2", "--count", COUNT), "boundaries", "spans", "executors", "context", "waits");
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "after"})
    void jdkHttpSync(String faults) throws Exception {
        check(faults, "jfr=%JFR%", List.of("jdk-http", "--mode", "sync", "--producers", "1", "--io-threads", "2", "--count",
                COUNT), "boundaries", "executors", "context", "waits");
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "after"})
    void knownPath(String faults) throws Exception {
        check(faults, "jfr=%JFR%,requests=io.hopscope.samples.knownpath.KnownPath#request", List.of("known-path", "--count",
                "3", "--pause-ms", "10"), "boundaries", "executors", "waits");
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "after"})
    void pipelineOkHttpSyncOverAsync(String faults) throws Exception {
        check(faults, "jfr=%JFR%", List.of("pipeline", "--mode", "sync-over-async", "--http-client", "okhttp",
                "--parallel", "2", "--count", COUNT), "boundaries", "spans", "executors", "waits");
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "after"})
    void pipelineNettySync(String faults) throws Exception {
        check(faults, "jfr=%JFR%", List.of("pipeline", "--mode", "sync", "--http-client", "netty", "--parallel", "2",
                "--count", COUNT), "boundaries", "spans", "executors", "context", "waits");
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "after"})
    void jdkHttpAsync(String faults) throws Exception {
        check(faults, "jfr=%JFR%", List.of("jdk-http", "--mode", "async", "--producers", "1", "--in-flight", "4",
                "--io-threads", "2", "--count", COUNT), "boundaries", "executors", "context", "waits");
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "after"})
    void openLoop(String faults) throws Exception {
        check(faults, "jfr=%JFR%,requests=io.hopscope.samples.openloop.OpenLoopCommand#exchange", List.of("open-loop",
                "--mode", "sync-over-async", "--rps", "20", "--duration", "2", "--delay-ms", "20"),
                "boundaries", "executors", "context", "waits");
    }

    /**
     * Runs the sample with faults on and checks: exit 0; every hopscope line on stderr is a failure
     * report, at most one per instrumentation; each of {@code hit} has AgentError events, the last
     * with a count above 1 (failures are counted, not only reported once).
     */
    private static void check(String faults, String options, List<String> sampleArgs, String... hit) throws Exception {
        List<String> args = new ArrayList<>(List.of("-Dhopscope.test.faults=" + faults, "-jar", SamplesJar.path().toString()));
        args.addAll(sampleArgs);
        AgentRun run = AgentRun.run(options, args);
        assertThat(run.exitCode).as("exit code of %s; stdout %s; stderr %s", sampleArgs, run.stdout, run.stderr)
                .isZero();

        Map<String, Integer> linesPerInstrumentation = new TreeMap<>();
        for (String line : run.agentLines()) {
            Matcher m = FAILED.matcher(line);
            assertThat(m.matches()).as("stderr line %s", line).isTrue();
            assertThat(line).contains("hopscope.test.faults: injected fault");
            linesPerInstrumentation.merge(m.group(1), 1, Integer::sum);
        }
        assertThat(linesPerInstrumentation.values()).as("stderr lines per instrumentation: %s", run.stderr)
                .allMatch(n -> n == 1);

        Map<String, Long> counts = new TreeMap<>();
        for (RecordedEvent e : run.events()) {
            if (e.getEventType().getName().equals("hopscope.AgentError")) {
                // A hook's failure is its instrumentation's, never a task of the agent's own.
                assertThat(e.getString("task")).as("task of %s", e).isEmpty();
                counts.merge(e.getString("instrumentation"), e.getLong("count"), Math::max);
            }
        }
        assertThat(counts).as("AgentError counts of %s", sampleArgs).containsKeys(hit);
        for (String instrumentation : hit) {
            assertThat(counts.get(instrumentation)).as("AgentError count of %s in %s", instrumentation, sampleArgs)
                    .isGreaterThan(1);
        }
        assertThat(linesPerInstrumentation.keySet()).as("instrumentations on stderr").isEqualTo(counts.keySet());
        System.out.println("FaultInjectionIT " + faults + " " + String.join(" ", sampleArgs) + ": " + counts);
    }
}
