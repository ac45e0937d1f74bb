package io.hopscope.agent.instrumentation.azurecore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The azure-core pipeline sample under the agent, both ways a synchronous SDK call can run:
 * OkHttp sendSync stays on the caller thread; Netty send().block() hops to an event loop and back
 * (woken, or finding the response there), every request.
 */
class PipelineIT {

    private static final int COUNT = 30;
    /** The sample's policies, in pipeline order. */
    private static final List<String> POLICIES = List.of(
            "com.azure.core.http.policy.UserAgentPolicy",
            "com.azure.core.http.policy.RequestIdPolicy",
            "com.azure.core.http.policy.RetryPolicy",
            "io.hopscope.samples.pipeline.ClientTagPolicy",
            "io.hopscope.samples.pipeline.AsyncOnlyPolicy");

    @BeforeAll
    static void samplesAreBuilt() {
        assumeThat(SamplesJar.has("io/hopscope/samples/pipeline/PipelineCommand.class"))
                .as("samples jar with the pipeline scenario at %s", SamplesJar.path()).isTrue();
    }

    /** Every span is recorded: a loopback request is far shorter than the default 1 ms span threshold. */
    private static Map<Long, Requests.Request> run(String mode, String client) throws Exception {
        return run(mode, client, "jfr=%JFR%,spanthreshold=0");
    }

    private static Map<Long, Requests.Request> run(String mode, String client, String agentOptions) throws Exception {
        AgentRun run = AgentRun.run(agentOptions, List.of("-jar", SamplesJar.path().toString(), "pipeline",
                "--mode", mode, "--http-client", client, "--parallel", "2", "--count", Integer.toString(COUNT)));
        // Measured requests plus the sample's own warm-up/validation ones, if any.
        return run.cleanRequests(COUNT);
    }

    @Test
    void okhttpSyncRequestsStayOnTheCallerThread() throws Exception {
        for (Requests.Request r : run("sync", "okhttp").values()) {
            r.assertOk("com.azure.core.http.HttpPipeline#sendSync");
            assertThat(r.request.getString("name")).startsWith("GET 127.0.0.1/");
            assertThat(r.request.getInt("statusCode")).isEqualTo(200);
            assertThat(r.hops).as("hops of request %d", r.id).isEmpty();
            assertThat(r.threads()).as("threads of request %d", r.id).hasSize(1);
            assertPoliciesInPipelineOrder(r);
            assertAllocation(r);
        }
    }

    @Test
    void nettySyncOverAsyncRequestsHopToAnEventLoopAndBack() throws Exception {
        Map<Long, Requests.Request> requests = run("sync-over-async", "netty");
        int woken = 0;
        int viaExecutor = 0;
        for (Requests.Request r : requests.values()) {
            r.assertOk("com.azure.core.http.HttpPipeline#send");
            String caller = Requests.startThreadName(r.request);
            // The request ends when the caller's block() returns, so it includes the wake back; the
            // agent then leaves startThread null (the event's own thread), so check where it began.
            assertThat(r.request.getThread().getJavaName()).isEqualTo(caller);
            assertThat(r.segments).as("segments of request %d", r.id)
                    .anyMatch(s -> "start".equals(s.getString("kind")) && caller.equals(s.getThread().getJavaName()));
            // Onto the loop through its executor, or, when the caller's connection acquire was
            // pending, through the pool's Borrower on the loop that released a connection (the
            // request then runs on inline there, with no execute()).
            assertThat(r.hops("handoff")).as("handoffs of request %d", r.id)
                    .anyMatch(h -> Requests.threadName(h, "toThread").startsWith("reactor-http-")
                            && (h.getString("via").startsWith("io.netty.")
                                    || h.getString("via").endsWith(".pool.AbstractPool$Borrower")));
            if (r.hops("handoff").stream().anyMatch(h -> h.getString("via").startsWith("io.netty."))) {
                viaExecutor++;
            }
            // The way back is a hop whatever the timing: a wake when the caller parked in block(),
            // a return when the response was there before it got to park (no Wait then).
            List<RecordedEvent> back = r.hops.stream()
                    .filter(h -> h.getString("kind").equals("wake") || h.getString("kind").equals("return")).toList();
            assertThat(back).as("the way back of request %d", r.id).singleElement().satisfies(h -> {
                assertThat(Requests.threadName(h, "toThread")).isEqualTo(caller);
                assertThat(Requests.threadName(h, "fromThread")).startsWith("reactor-http-");
                assertThat(h.getString("kind")).isEqualTo(r.waits.isEmpty() ? "return" : "wake");
            });
            assertThat(r.hops.size()).as("hops of request %d", r.id).isGreaterThanOrEqualTo(2);
            if (!r.waits.isEmpty()) {
                woken++;
                assertThat(r.waits).singleElement().satisfies(w -> {
                    assertThat(w.getString("kind")).isEqualTo("Mono.block");
                    assertThat(w.getLong("wakeLatencyNanos")).isPositive();
                    assertThat(Requests.threadName(w, "wakerThread")).isEqualTo(
                            Requests.threadName(back.get(0), "fromThread"));
                });
            }
            assertPoliciesInPipelineOrder(r);
            assertAllocation(r);
        }
        assertThat(viaExecutor).as("requests handed to a loop through its executor").isPositive();
        // Most callers park before the response is back; the rest are return hops, checked above.
        assertThat(woken).as("requests woken back to their caller").isPositive();
    }

    @Test
    void spansOneInThreeRecordsTheSpansOfEveryThirdRequestAndEverythingElseOfAll() throws Exception {
        Map<Long, Requests.Request> requests = run("sync", "okhttp", "jfr=%JFR%,spanthreshold=0,spans=1/3");
        int withSpans = 0;
        for (Requests.Request r : requests.values()) {
            assertThat(r.request).as("Request event of %d", r.id).isNotNull();
            assertThat(r.segments).as("segments of request %d", r.id).isNotEmpty();
            assertAllocation(r);
            if (r.id % 3 == 0) {
                assertPoliciesInPipelineOrder(r);
                withSpans++;
            } else {
                assertThat(r.spans).as("spans of request %d", r.id).isEmpty();
            }
        }
        assertThat(withSpans).isGreaterThanOrEqualTo(COUNT / 3);
    }

    private static void assertPoliciesInPipelineOrder(Requests.Request r) {
        List<String> policies = r.spans.stream()
                .filter(s -> s.getString("kind").equals("policy") && POLICIES.contains(s.getString("name")))
                .sorted(java.util.Comparator.comparingInt(s -> s.getInt("depth")))
                .map(s -> s.getString("name"))
                .collect(Collectors.toList());
        assertThat(policies).as("policy spans of request %d", r.id).containsExactlyElementsOf(POLICIES);
        Set<Long> spanIds = r.spans.stream().map(s -> s.getLong("spanId")).collect(Collectors.toSet());
        for (RecordedEvent span : r.spans) {
            long parent = span.getLong("parentSpanId");
            assertThat(parent == 0 ? span.getInt("depth") == 0 : spanIds.contains(parent))
                    .as("parent of span %s", span.getString("name")).isTrue();
        }
    }

    private static void assertAllocation(Requests.Request r) {
        assertThat(r.segments).isNotEmpty();
        assertThat(r.segments).allMatch(s -> s.getLong("allocatedBytes") >= 0);
        assertThat(r.allocatedBytes()).as("allocated bytes of request %d", r.id).isPositive();
    }
}
