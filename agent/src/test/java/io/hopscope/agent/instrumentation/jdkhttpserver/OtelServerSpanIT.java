package io.hopscope.agent.instrumentation.jdkhttpserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.ServerChecks;
import io.hopscope.agent.testing.Requests;
import io.hopscope.testapps.servers.ServerStudy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * With the OpenTelemetry java agent in the same JVM (the samples' bench copy, 2.18, which instruments
 * the JDK's HTTP server with a filter of its own), an inbound request carries the server span that
 * agent started for it, not its caller's: same trace, the OpenTelemetry span as its parent. The
 * OpenTelemetry agent exports its spans to its log (the logging exporter), which the test reads;
 * its HttpURLConnection instrumentation is off, so that it does not replace the traceparent the
 * study's client sends with one of its own.
 */
class OtelServerSpanIT {

    /** LoggingSpanExporter's line: {@code 'NAME' : TRACE_ID SPAN_ID KIND [tracer: ...]}. */
    private static final Pattern SPAN = Pattern.compile("'([^']*)' : ([0-9a-f]{32}) ([0-9a-f]{16}) SERVER ");

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void anInboundRequestTakesTheOpenTelemetryServerSpan(String java) throws Exception {
        Path otelAgent = Path.of(System.getProperty("hopscope.samples.jar")).resolveSibling("bench/opentelemetry-javaagent.jar");
        assertThat(otelAgent).as("the samples build copies the OpenTelemetry agent beside its jar").exists();
        ServerChecks.Checked study = ServerChecks.check(java, new ServerChecks.Expected("JdkHttpServerApp",
                "com.sun.net.httpserver.HttpHandler#handle")
                .queue("HTTP-Dispatcher", "jdk-server-worker")
                .failedStatus(-1)
                .callersSpan(false)
                .jvmArgs(List.of("-javaagent:" + otelAgent, "-Dotel.service.name=hopscope-server-it",
                        "-Dotel.traces.exporter=logging", "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none",
                        "-Dotel.instrumentation.http-url-connection.enabled=false")));
        // Each trace has two server spans: the order's and the backend's, which the order's call reached
        // with the trace propagated. The backend's request in the recording names the backend's span.
        Map<String, Set<String>> serverSpans = new HashMap<>();
        Matcher m = SPAN.matcher(study.run.stdout + "\n" + study.run.stderr);
        while (m.find()) {
            serverSpans.computeIfAbsent(m.group(2), t -> new HashSet<>()).add(m.group(3));
        }
        for (Requests.Request r : Requests.byId(study.run.events()).values()) {
            if (r.request != null && ("GET " + ServerStudy.BACKEND_PATH).equals(r.request.getString("name"))
                    && r.request.getString("traceId") != null) {
                serverSpans.getOrDefault(r.request.getString("traceId"), new HashSet<>())
                        .remove(r.request.getString("spanId"));
            }
        }
        assertThat(study.byTrace).as("requests of the study").isNotEmpty();
        for (Map.Entry<String, Requests.Request> traced : study.byTrace.entrySet()) {
            assertThat(serverSpans.get(traced.getKey())).as("the OpenTelemetry server span of trace %s, besides its"
                    + " backend's, among %s", traced.getKey(), serverSpans).hasSize(1);
            assertThat(traced.getValue().request.getString("spanId")).as("request of trace %s", traced.getKey())
                    .isEqualTo(serverSpans.get(traced.getKey()).iterator().next());
        }
    }
}
