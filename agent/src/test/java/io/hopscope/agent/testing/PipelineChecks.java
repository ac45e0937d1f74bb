package io.hopscope.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;

/**
 * What the samples' azure-core pipeline records, each way a synchronous SDK call can run, wherever
 * the application and its libraries are loaded from (PipelineIT, ClassLoadersIT), and the same of
 * testapps.PipelineApp's, the same pipeline outside the samples (PipelineIT: on each tested
 * azure-core, and on JDK 11).
 */
public final class PipelineChecks {

    /** The sample's policies, in pipeline order. */
    private static final List<String> POLICIES = policies("io.hopscope.samples.pipeline.ClientTagPolicy",
            "io.hopscope.samples.pipeline.AsyncOnlyPolicy");

    /** The boundary of the samples' embedded server's requests (Jetty 12's core server). */
    public static final String SAMPLE_SERVER = "org.eclipse.jetty.server.Server#handle";

    /** azure-core's three policies of the pipeline, then its sync policy and its async-only one. */
    private static List<String> policies(String syncPolicy, String asyncOnlyPolicy) {
        return List.of("com.azure.core.http.policy.UserAgentPolicy", "com.azure.core.http.policy.RequestIdPolicy",
                "com.azure.core.http.policy.RetryPolicy", syncPolicy, asyncOnlyPolicy);
    }

    private PipelineChecks() {
    }

    /**
     * The samples' embedded server's requests: inbound requests beside the clients' in every sample
     * that calls it, at least {@code atLeast} (one for each answered call), each named by its path
     * alone ({@code GET /}, beside the clients' {@code GET 127.0.0.1/}), 200 and ok. Its handler is
     * of Jetty's non-blocking kind, so the thread that selected a request runs it: no server queue.
     */
    public static void sampleServer(Collection<Requests.Request> served, int atLeast) {
        assertThat(served).as("the sample server's requests").hasSizeGreaterThanOrEqualTo(atLeast);
        for (Requests.Request r : served) {
            r.assertOk(SAMPLE_SERVER);
            assertThat(r.request.getString("kind")).isEqualTo("server");
            assertThat(r.request.getString("name")).isEqualTo("GET /");
            assertThat(r.request.getInt("statusCode")).isEqualTo(200);
            assertThat(Requests.startThreadName(r.request)).as("start of served request %d", r.id)
                    .startsWith("sample-server");
            assertThat(r.hops).as("hops of served request %d", r.id).noneMatch(h -> h.getBoolean("serverQueue"));
        }
    }

    /** OkHttp sendSync: each request stays on its caller thread, no hop, every policy a span. */
    public static void okHttpSync(Collection<Requests.Request> requests) {
        okHttpSync(requests, POLICIES);
    }

    /** The same with the pipeline's {@code policies}, in order (the JDK 11 run's PipelineApp has its own). */
    public static void okHttpSync(Collection<Requests.Request> requests, List<String> policies) {
        assertThat(requests).isNotEmpty();
        for (Requests.Request r : requests) {
            r.assertOk("com.azure.core.http.HttpPipeline#sendSync");
            assertThat(r.request.getString("name")).startsWith("GET 127.0.0.1/");
            assertThat(r.request.getInt("statusCode")).isEqualTo(200);
            assertThat(r.hops).as("hops of request %d", r.id).isEmpty();
            assertThat(r.threads()).as("threads of request %d", r.id).hasSize(1);
            assertPoliciesInPipelineOrder(r, policies);
            assertAllocation(r);
        }
    }

    /**
     * Netty send().block(): each request hops to an event loop and back (woken in Mono.block, or
     * finding the response there), every policy a span.
     */
    public static void nettySyncOverAsync(Collection<Requests.Request> requests) {
        nettySyncOverAsync(requests, "io.netty", "reactor-http-", POLICIES);
    }

    /**
     * The same on a copy of Netty relocated to {@code nettyPackage} (RelocatedPipelineIT), whose
     * event loop threads' names start with {@code loopThread} (the shade plugin relocates Reactor
     * Netty's "reactor" name prefix with its package).
     */
    public static void nettySyncOverAsync(Collection<Requests.Request> requests, String nettyPackage, String loopThread) {
        nettySyncOverAsync(requests, nettyPackage, loopThread, POLICIES);
    }

    /** The same with the pipeline's {@code policies}, in order. */
    public static void nettySyncOverAsync(Collection<Requests.Request> requests, String nettyPackage, String loopThread,
            List<String> policies) {
        assertThat(requests).isNotEmpty();
        int woken = 0;
        int viaExecutor = 0;
        for (Requests.Request r : requests) {
            nettySyncOverAsync(r, nettyPackage, loopThread, policies);
            if (r.hops("handoff").stream().anyMatch(h -> h.getString("via").startsWith(nettyPackage + "."))) {
                viaExecutor++;
            }
            if (!r.waits.isEmpty()) {
                woken++;
            }
        }
        assertThat(viaExecutor).as("requests handed to a loop through its executor").isPositive();
        // Most callers park before the response is back; the rest are return hops, checked above.
        assertThat(woken).as("requests woken back to their caller").isPositive();
    }

    /** One request of the samples' Netty pipeline (see below), on a copy of Netty in {@code nettyPackage}. */
    public static void nettySyncOverAsync(Requests.Request r, String nettyPackage, String loopThread) {
        nettySyncOverAsync(r, nettyPackage, loopThread, POLICIES);
    }

    /**
     * One Netty send().block() request, what holds whatever the timing (how many of a run's requests
     * took which way is the timing's): on to an event loop and back to its caller, woken in
     * Mono.block or finding the response there, every policy a span.
     */
    public static void nettySyncOverAsync(Requests.Request r, String nettyPackage, String loopThread,
            List<String> policies) {
        String netty = nettyPackage + ".";
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
                .anyMatch(h -> Requests.threadName(h, "toThread").startsWith(loopThread)
                        && (h.getString("via").startsWith(netty)
                                || h.getString("via").endsWith(".pool.AbstractPool$Borrower")));
        // The way back is a hop whatever the timing: a wake when the caller parked in block(),
        // a return when the response was there before it got to park (no Wait then).
        List<RecordedEvent> back = r.hops.stream()
                .filter(h -> h.getString("kind").equals("wake") || h.getString("kind").equals("return")).toList();
        assertThat(back).as("the way back of request %d", r.id).singleElement().satisfies(h -> {
            assertThat(Requests.threadName(h, "toThread")).isEqualTo(caller);
            assertThat(Requests.threadName(h, "fromThread")).startsWith(loopThread);
            assertThat(h.getString("kind")).isEqualTo(r.waits.isEmpty() ? "return" : "wake");
        });
        assertThat(r.hops.size()).as("hops of request %d", r.id).isGreaterThanOrEqualTo(2);
        if (!r.waits.isEmpty()) {
            assertThat(r.waits).singleElement().satisfies(w -> {
                assertThat(w.getString("kind")).isEqualTo("Mono.block");
                assertThat(w.getLong("wakeLatencyNanos")).isPositive();
                assertThat(Requests.threadName(w, "wakerThread")).isEqualTo(
                        Requests.threadName(back.get(0), "fromThread"));
            });
        }
        assertPoliciesInPipelineOrder(r, policies);
        assertAllocation(r);
    }

    /**
     * Every policy of the sample is a span, nested in pipeline order, each with its parent recorded;
     * the HttpClient's send is one http span, the innermost policy's child.
     */
    public static void assertPoliciesInPipelineOrder(Requests.Request r) {
        assertPoliciesInPipelineOrder(r, POLICIES);
    }

    /** The same with the pipeline's {@code expected} policies, in order. */
    public static void assertPoliciesInPipelineOrder(Requests.Request r, List<String> expected) {
        List<String> policies = r.spans.stream()
                .filter(s -> s.getString("kind").equals("policy") && expected.contains(s.getString("name")))
                .sorted(Comparator.comparingInt(s -> s.getInt("depth")))
                .map(s -> s.getString("name"))
                .collect(Collectors.toList());
        assertThat(policies).as("policy spans of request %d", r.id).containsExactlyElementsOf(expected);
        // The HttpClient's send is a span of its own, under the innermost policy: its wait is not the policy's.
        long innermost = r.spans.stream().filter(s -> s.getString("name").equals(expected.get(expected.size() - 1)))
                .mapToLong(s -> s.getLong("spanId")).findFirst().orElse(-1);
        assertThat(r.spans.stream().filter(s -> s.getString("kind").equals("http")))
                .as("http spans of request %d", r.id)
                .singleElement().satisfies(send -> assertThat(send.getLong("parentSpanId")).isEqualTo(innermost));
        Set<Long> spanIds = r.spans.stream().map(s -> s.getLong("spanId")).collect(Collectors.toSet());
        for (RecordedEvent span : r.spans) {
            long parent = span.getLong("parentSpanId");
            assertThat(parent == 0 ? span.getInt("depth") == 0 : spanIds.contains(parent))
                    .as("parent of span %s", span.getString("name")).isTrue();
        }
    }

    /** Every segment's allocation is known, and the request allocated something. */
    public static void assertAllocation(Requests.Request r) {
        assertThat(r.segments).isNotEmpty();
        assertThat(r.segments).allMatch(s -> s.getLong("allocatedBytes") >= 0);
        assertThat(r.allocatedBytes()).as("allocated bytes of request %d", r.id).isPositive();
    }
}
