package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.CiSkip;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.OtelCollector;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32's trace-id done-when: the real OpenTelemetry Java agent (the samples' bench copy, from Maven
 * Central) and the hopscope agent in one JVM, running the pipeline sample. The OpenTelemetry agent opens
 * a span around each call ({@code otel.instrumentation.methods.include} on the sample's
 * {@code PipelineCommand.callOnce}) and exports its spans through OTLP into a real Collector
 * (scripts/otelcol.sh), whose file exporter the test reads. Each hopscope request must carry the ids of
 * the span it was made in, as the Collector received it; its hops must be of the kinds and vias of the
 * same run without the OpenTelemetry agent, with exactly one way back on every sync-over-async call
 * (none on OkHttp's, whose sync calls take no hop at all), in both runs. JDK 17 and the
 * second JDK (HOPSCOPE_JDK2); the hopscope agent is given first, so the OpenTelemetry agent's classes
 * are not there yet at hopscope's premain.
 */
class OtelTraceIdIT {

    private static final String CALL_SPAN = "PipelineCommand.callOnce";
    private static final int CALLS = 60;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1} on {2}")
    @CsvSource({"netty, sync-over-async, 17", "okhttp, sync, 17", "netty, sync-over-async, jdk2", "okhttp, sync, jdk2"})
    void requestsCarryTheIdsOfTheSpansTheOpenTelemetryAgentExportedAndKeepTheirHops(String client, String mode,
            String jdk) throws Exception {
        Paths.needBuiltJars();
        String java = "jdk2".equals(jdk) ? Paths.secondJava().toString()
                : Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path otelAgent = otelAgent();
        try (OtelCollector collector = OtelCollector.start(dir)) {
            Path traced = dir.resolve("traced.jfr");
            run(java, traced, List.of("-javaagent:" + otelAgent,
                    "-Dotel.service.name=hopscope-trace-it",
                    "-Dotel.traces.exporter=otlp", "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none",
                    "-Dotel.exporter.otlp.protocol=http/protobuf", "-Dotel.exporter.otlp.endpoint=" + collector.otlpUrl(),
                    "-Dotel.instrumentation.methods.include=io.hopscope.samples.pipeline.PipelineCommand[callOnce]",
                    "-Dotel.bsp.schedule.delay=200"), client, mode, "traced");
            Path plain = dir.resolve("plain.jfr");
            run(java, plain, List.of(), client, mode, "plain");

            List<JsonNode> tracedRequests = sampleRequests(traced);
            List<JsonNode> plainRequests = sampleRequests(plain);
            assertThat(tracedRequests).hasSize(CALLS);
            assertThat(plainRequests).hasSize(CALLS);
            Map<String, JsonNode> exported = exportedSpans(collector, CALLS);

            // The ids: each request's are those of the call's span, which the Collector received; each
            // call is a span of its own, so no two requests share one.
            Map<String, Long> requestBySpan = new HashMap<>();
            for (JsonNode r : tracedRequests) {
                String traceId = r.path("traceId").asText(null);
                String spanId = r.path("spanId").asText(null);
                assertThat(traceId).as("request %s's trace id", r.get("id")).matches("[0-9a-f]{32}");
                assertThat(spanId).as("request %s's span id", r.get("id")).matches("[0-9a-f]{16}");
                JsonNode span = exported.get(traceId + "/" + spanId);
                assertThat(span).as("the exported span of request %s (%s/%s) among %d", r.get("id"), traceId, spanId,
                        exported.size()).isNotNull();
                assertThat(span.get("name").asText()).isEqualTo(CALL_SPAN);
                assertThat(requestBySpan.put(spanId, r.get("id").asLong())).as("span %s twice", spanId).isNull();
            }
            assertThat(plainRequests).allSatisfy(r -> assertThat(r.get("traceId").isNull()).isTrue());

            // --trace-id selects the request of one trace, the text report shows its ids.
            JsonNode one = tracedRequests.get(tracedRequests.size() / 2);
            Cli selected = Cli.run("report", traced.toString(), "--trace-id", one.get("traceId").asText(), "--top", "all");
            assertThat(selected.exitCode()).as(selected.err()).isZero();
            assertThat(selected.out()).contains("request " + one.get("id").asLong() + " ")
                    .contains("trace " + one.get("traceId").asText() + " span " + one.get("spanId").asText());

            // The hops: the kinds and vias of the run without the OpenTelemetry agent (how many handoffs
            // a Netty call takes varies with the connection pool's timing, run to run, with or without
            // it), and on every sync-over-async call exactly one way back to the caller, in both runs.
            Set<String> plainHops = hops(plainRequests);
            Set<String> tracedHops = hops(tracedRequests);
            assertThat(tracedHops).as("hop kinds and vias with the OpenTelemetry agent").isSubsetOf(plainHops);
            if (client.equals("okhttp")) {
                // No hop at all: on JDK 25 the OpenTelemetry agent wraps a virtual thread's continuation
                // (unparked by the caller) in its context wrapper, which once was a handoff to the virtual
                // threads' scheduler (ForkJoinPool-1) on about a third of the calls.
                for (List<JsonNode> run : List.of(tracedRequests, plainRequests)) {
                    assertThat(run).allSatisfy(r -> assertThat(r.get("hopList")).as("request %s's hops", r.get("id"))
                            .isEmpty());
                }
            }
            for (JsonNode r : tracedRequests) {
                assertThat(backHops(r)).as("ways back in request %s: %s", r.get("id"), r.get("hopList"))
                        .isEqualTo(mode.equals("sync-over-async") ? 1 : 0);
            }
            for (JsonNode r : plainRequests) {
                assertThat(backHops(r)).as("ways back in request %s without it: %s", r.get("id"), r.get("hopList"))
                        .isEqualTo(mode.equals("sync-over-async") ? 1 : 0);
            }
            if (mode.equals("sync-over-async")) {
                for (JsonNode r : tracedRequests) {
                    for (JsonNode w : r.get("waits")) {
                        assertThat(w.get("waker").isNull()).as("a wait of request %s without its waker: %s",
                                r.get("id"), w).isFalse();
                    }
                }
            }
        }
    }

    private void run(String java, Path jfr, List<String> otel, String client, String mode, String name)
            throws Exception {
        List<String> command = Paths.shortJvm(Path.of(java));
        command.add("-javaagent:" + Paths.agentJar() + "=jfr=" + jfr);
        command.addAll(otel);
        command.addAll(List.of("-jar", Paths.samplesJar().toString(), "pipeline", "--http-client", client, "--mode", mode,
                "--parallel", "2", "--count", Integer.toString(CALLS)));
        Path log = dir.resolve(name + ".log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("the %s run ended", name).isTrue();
        assertThat(p.exitValue()).as(Files.readString(log)).isZero();
    }

    /** The requests of the sample's calls (the pipeline's boundaries), every one of them. */
    private static List<JsonNode> sampleRequests(Path jfr) throws Exception {
        Cli json = Cli.run("report", jfr.toString(), "--format", "json", "--top", "all");
        assertThat(json.exitCode()).as(json.err()).isZero();
        List<JsonNode> requests = new ArrayList<>();
        for (JsonNode r : new ObjectMapper().readTree(json.out()).get("requests")) {
            if (r.get("boundary").asText().startsWith("com.azure.core.http.HttpPipeline#")) {
                requests.add(r);
            }
        }
        return requests;
    }

    /**
     * Every hop kind and via the requests took: a wake and a return are one way back (which of the two
     * is the race between the response and the caller's look).
     */
    private static Set<String> hops(List<JsonNode> requests) {
        Set<String> hops = new TreeSet<>();
        for (JsonNode r : requests) {
            for (JsonNode h : r.get("hopList")) {
                hops.add((h.get("kind").asText().equals("handoff") ? "handoff" : "back") + " via "
                        + h.path("via").asText("?"));
            }
        }
        return hops;
    }

    /** The request's ways back (wake or return hops) to the thread it started on. */
    private static long backHops(JsonNode r) {
        long caller = r.get("startThread").get("javaId").asLong();
        long back = 0;
        for (JsonNode h : r.get("hopList")) {
            if (!h.get("kind").asText().equals("handoff") && h.get("to").get("javaId").asLong() == caller) {
                back++;
            }
        }
        return back;
    }

    /**
     * The spans the Collector received, by trace id and span id, once it has at least {@code calls} of the
     * calls' own (the agent flushes its last batch as its JVM exits; the Collector writes it a moment
     * later), or after 30 s with what there is.
     */
    private static Map<String, JsonNode> exportedSpans(OtelCollector collector, int calls) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            Map<String, JsonNode> spans = new HashMap<>();
            int callSpans = 0;
            for (String line : collector.received("traces", 1)) {
                for (JsonNode rs : mapper.readTree(line).path("resourceSpans")) {
                    for (JsonNode ss : rs.path("scopeSpans")) {
                        for (JsonNode s : ss.path("spans")) {
                            spans.put(s.get("traceId").asText() + "/" + s.get("spanId").asText(), s);
                            callSpans += CALL_SPAN.equals(s.path("name").asText()) ? 1 : 0;
                        }
                    }
                }
            }
            if (callSpans >= calls || System.nanoTime() > deadline) {
                return spans;
            }
            Thread.sleep(200);
        }
    }

    /** The OpenTelemetry Java agent the samples module copies from Maven Central for its bench. */
    private static Path otelAgent() {
        Path jar = Paths.moduleDir().resolve("../samples/target/bench/opentelemetry-javaagent.jar").normalize();
        CiSkip.unless(Files.isRegularFile(jar), "no " + jar + " (the samples module copies it at package)");
        return jar;
    }
}
