package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The OpenTelemetry java agent (the samples' bench copy, 2.18) given before hopscope's, as a
 * {@code JAVA_TOOL_OPTIONS} agent is: the pipeline sample's Netty sync-over-async calls keep their
 * way back from the first one. The OpenTelemetry agent gives some JDK classes an interface of its
 * own when it loads them, and leaves it out when another agent has them retransformed, which the
 * JVM refuses; it refused the whole batch of hopscope's retransformation at premain, so that
 * LockSupport, ThreadPoolExecutor and Thread kept no hook, the Mono.block waker was not seen, and
 * the first calls (3 or 4 of 200, on JDK 17 and 25) had no way back. Now the batch is split and
 * only the classes the JVM refuses (FutureTask, CompletableFuture, fork/join's adapters, the
 * scheduler's tasks) are left, each reported once as one failure of the transform task.
 */
class OtelAgentFirstIT {

    private static final int CALLS = 200;
    private static final String SEND = "com.azure.core.http.HttpPipeline#send";

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void theFirstCallsKeepTheirWayBack(String java) throws Exception {
        Path otelAgent = SamplesJar.path().resolveSibling("bench/opentelemetry-javaagent.jar");
        assertThat(otelAgent).as("the samples build copies the OpenTelemetry agent beside its jar").exists();
        assertThat(SamplesJar.path()).as("the samples jar").exists();
        String what = Handovers.jdk(java) + ", OpenTelemetry's agent first";
        AgentRun run = AgentRun.runAfterAgents(java, List.of("-javaagent:" + otelAgent,
                        "-Dotel.service.name=hopscope-otel-first-it", "-Dotel.traces.exporter=none",
                        "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none"),
                "jfr=%JFR%", List.of("-jar", SamplesJar.path().toString(), "pipeline", "--http-client", "netty",
                        "--mode", "sync-over-async", "--parallel", "2", "--count", Integer.toString(CALLS)));
        assertThat(run.exitCode).as("%s: stderr %s", what, run.stderr).isZero();
        assertThat(run.stdout).as(what).contains("ops: " + CALLS);
        List<RecordedEvent> events = run.events();
        List<Requests.Request> calls = new ArrayList<>();
        for (Requests.Request r : Requests.byId(events).values()) {
            if (r.request != null && SEND.equals(r.request.getString("boundary"))) {
                calls.add(r);
            }
        }
        calls.sort(Comparator.comparing(r -> r.request.getStartTime()));
        assertThat(calls).as(what).hasSizeGreaterThanOrEqualTo(CALLS);
        for (int i = 0; i < calls.size(); i++) {
            Requests.Request r = calls.get(i);
            String call = what + ", call " + i + " of " + calls.size() + " " + Handovers.hops(r);
            r.assertOk(SEND);
            String caller = Requests.startThreadName(r.request);
            List<RecordedEvent> back = r.hops.stream().filter(h -> !h.getString("kind").equals("handoff")
                    && caller.equals(Requests.threadName(h, "toThread"))).toList();
            assertThat(back).as(call + ": one way back").hasSize(1);
            assertThat(r.waits).as(call + ": every wait knows its waker").allSatisfy(w ->
                    assertThat(Requests.threadName(w, "wakerThread")).isNotNull());
        }
        // The one thing hopscope says: the classes the JVM would not retransform, named once.
        assertThat(run.agentLines()).as(what).hasSize(1).allSatisfy(line -> assertThat(line)
                .startsWith("hopscope: agent task transform failed (java.util.concurrent.")
                .contains("give -javaagent:hopscope first"));
        assertThat(events).as(what + ": failures other than the refused retransformations")
                .filteredOn(e -> e.getEventType().getName().equals("hopscope.AgentError"))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.getString("task")).isEqualTo("transform"));
    }
}
