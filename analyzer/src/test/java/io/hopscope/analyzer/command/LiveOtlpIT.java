package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.OtelCollector;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.PrometheusSample;
import io.hopscope.analyzer.testing.SampleServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hopscope live PID --otlp URL} against the open-loop sample (Netty sync-over-async: handoffs to
 * the event loop and wakes back), with its metrics sent to a real OpenTelemetry Collector
 * (scripts/otelcol.sh) whose file exporter the test reads and whose Prometheus exporter it scrapes, as
 * a Prometheus server would; then an endpoint that is not there, which live waits out.
 */
class LiveOtlpIT {

    @TempDir
    Path dir;

    @Test
    void collectorReceivesTheLiveFiguresAsMetricsAndAnEndpointThatIsNotThereIsAnOutage() throws Exception {
        Path samples = Paths.samplesJar();
        Path agent = Paths.agentJar();
        Path cli = Paths.cliJar();
        Paths.needJars(samples, agent, cli);
        try (OtelCollector collector = OtelCollector.start(dir)) {
            Process target = new ProcessBuilder(LiveCommandIT.java(), "-jar", samples.toString(), "open-loop", "--mode",
                    "sync-over-async", "--rps", "50", "--delay-ms", "5", "--duration", "120")
                    .redirectErrorStream(true).start();
            LiveCommandIT.Lines targetOut = new LiveCommandIT.Lines(target);
            try {
                targetOut.await(l -> l.startsWith("# open-loop"), 1, 60);
                LiveCommandIT.Live live = new LiveCommandIT.Live(cli, dir.resolve("live.err"), Long.toString(target.pid()),
                        LiveCommandIT.OPTIONS, "--json", "--otlp", collector.otlpUrl(), "--service-name", "open-loop");
                // live prints a second once the stream has passed it and exports on a period of its own,
                // so the first exports after attach may hold no finished request yet: wait (bounded) for
                // the exports that hold finished requests and both hop kinds.
                live.out.await(l -> true, 3, 120);
                List<String> received = collector.received("metrics", 2);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (!holdsFinishedRequests(received) && System.nanoTime() < deadline) {
                    Thread.sleep(500);
                    received = collector.received("metrics", received.size() + 1);
                }
                live.interrupt();
                live.awaitExit(30, "live ends on Ctrl-C");
                assertThat(live.process.exitValue()).as("%s", Files.readString(dir.resolve("live.err"))).isZero();

                Map<String, JsonNode> metrics = new HashMap<>();
                Set<String> hopKinds = new HashSet<>();
                long finished = 0;
                for (String line : received) {
                    JsonNode export = new ObjectMapper().readTree(line);
                    for (JsonNode rm : export.path("resourceMetrics")) {
                        assertThat(rm.path("resource").path("attributes").toString()).contains("open-loop");
                        for (JsonNode m : hopscopeMetrics(rm)) {
                            metrics.put(m.path("name").asText(), m);
                            if (m.path("name").asText().equals("hopscope.hops")) {
                                m.path("sum").path("dataPoints").forEach(p -> hopKinds.add(p.path("attributes").get(0)
                                        .path("value").path("stringValue").asText()));
                            }
                            if (m.path("name").asText().equals("hopscope.request.duration")) {
                                for (JsonNode p : m.path("histogram").path("dataPoints")) {
                                    if (SampleServer.servedName(attribute(p))) {
                                        continue; // the sample's server's requests of the calls
                                    }
                                    assertThat(p.path("attributes").toString()).contains(LiveCommandIT.REQUEST);
                                    finished = Math.max(finished, p.path("count").asLong());
                                }
                            }
                        }
                    }
                }
                assertThat(metrics).as("%s", received).containsKeys("hopscope.request.duration", "hopscope.request.hops",
                        "hopscope.request.queue_delay", "hopscope.request.wake_latency", "hopscope.requests",
                        "hopscope.hops", "hopscope.requests.in_flight", "hopscope.process.threads");
                assertThat(finished).isPositive();
                assertThat(hopKinds).contains("handoff", "wake");
                assertThat(metrics.get("hopscope.process.threads").path("gauge").path("dataPoints").get(0)
                        .path("asInt").asLong()).isPositive();
                prometheusServesTheLastExport(collector);

                // A closed port is an outage, not an error: one line, and live goes on watching until Ctrl-C,
                // saying what it could not send.
                int port;
                try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                    port = s.getLocalPort();
                }
                LiveCommandIT.Live away = new LiveCommandIT.Live(cli, dir.resolve("away.err"),
                        Long.toString(target.pid()), "--otlp", "http://127.0.0.1:" + port);
                away.out.await(l -> true, 5, 120);
                assertThat(away.process.isAlive()).as("%s", Files.readString(dir.resolve("away.err"))).isTrue();
                away.interrupt();
                away.awaitExit(60, "live ends on Ctrl-C");
                String err = Files.readString(dir.resolve("away.err"));
                assertThat(away.process.exitValue()).as(err).isZero();
                assertThat(err.lines().filter(l -> l.contains("and trying again"))).singleElement().asString()
                        .startsWith("live: http://127.0.0.1:" + port + "/v1/metrics: cannot connect (connection refused?)")
                        .endsWith("keeping up to 5 profile windows and 300 metrics exports and trying again");
                assertThat(err).doesNotContain("hopscope:").doesNotContain("\tat ").doesNotContain("SEVERE");
                assertThat(away.err()).last().asString().matches("live: stopped, interrupted, after \\d+ intervals; sent 0 of"
                        + " \\d+ profile windows, dropped \\d+; sent 0 metrics exports, dropped [1-9]\\d*");
            } finally {
                target.destroyForcibly();
            }
        }
    }

    /**
     * What a Prometheus server scraping the collector gets: the figures of live's last export (at its stop,
     * once its stream was closed), by the names Prometheus gives them (dots to underscores, the unit and
     * {@code _total} as suffixes), service.name as the job. The file exporter wrote the same export as
     * its last line, perhaps a moment after the scrape: waited for, bounded.
     */
    private void prometheusServesTheLastExport(OtelCollector collector) throws Exception {
        List<PrometheusSample> scraped = collector.scrape();
        Map<String, Double> served = new HashMap<>();
        for (PrometheusSample s : scraped) {
            if (s.name().startsWith("hopscope_")) {
                assertThat(s.labels()).as("%s", s).containsEntry("job", "open-loop");
                String key = s.labels().getOrDefault("hopscope_request_name", s.labels().getOrDefault("hopscope_hop_kind", ""));
                served.put(s.name() + "|" + key, s.value());
            }
        }
        assertThat(served).as("%s", scraped).containsKeys("hopscope_request_duration_seconds_count|" + LiveCommandIT.REQUEST,
                "hopscope_request_duration_seconds_sum|" + LiveCommandIT.REQUEST, "hopscope_requests_total|" + LiveCommandIT.REQUEST,
                "hopscope_request_hops_count|" + LiveCommandIT.REQUEST, "hopscope_hops_total|handoff", "hopscope_hops_total|wake",
                "hopscope_process_threads|", "hopscope_requests_in_flight|");
        assertThat(served.get("hopscope_requests_total|" + LiveCommandIT.REQUEST)).isPositive();
        assertThat(served.get("hopscope_process_threads|")).isPositive();

        Map<String, Double> exported;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<String> lines = collector.received("metrics", 1);
        while (true) {
            exported = lastExport(lines.get(lines.size() - 1));
            if (exported.equals(expectedKeys(served, exported)) || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(200);
            lines = collector.received("metrics", lines.size() + 1);
        }
        assertThat(exported).as(lines.get(lines.size() - 1)).isNotEmpty();
        assertThat(served).as("Prometheus' scrape against the file exporter's last line").containsAllEntriesOf(exported);
    }

    // Only the figures both carry: the scrape has buckets and the SDK's own scope besides.
    private static Map<String, Double> expectedKeys(Map<String, Double> served, Map<String, Double> exported) {
        Map<String, Double> both = new HashMap<>();
        exported.keySet().forEach(k -> both.put(k, served.get(k)));
        return both;
    }

    /** One export line's hopscope figures, keyed as {@link #prometheusServesTheLastExport} keys the scrape. */
    private static Map<String, Double> lastExport(String line) throws Exception {
        Map<String, Double> figures = new HashMap<>();
        for (JsonNode rm : new ObjectMapper().readTree(line).path("resourceMetrics")) {
            for (JsonNode m : hopscopeMetrics(rm)) {
                String name = m.path("name").asText();
                if (name.equals("hopscope.requests")) {
                    m.path("sum").path("dataPoints").forEach(p -> figures.put("hopscope_requests_total|" + attribute(p),
                            p.path("asInt").asDouble()));
                } else if (name.equals("hopscope.hops")) {
                    m.path("sum").path("dataPoints").forEach(p -> figures.put("hopscope_hops_total|" + attribute(p),
                            p.path("asInt").asDouble()));
                } else if (name.equals("hopscope.request.duration")) {
                    m.path("histogram").path("dataPoints").forEach(p -> {
                        figures.put("hopscope_request_duration_seconds_count|" + attribute(p), p.path("count").asDouble());
                        figures.put("hopscope_request_duration_seconds_sum|" + attribute(p), p.path("sum").asDouble());
                    });
                }
            }
        }
        return figures;
    }

    private static String attribute(JsonNode dataPoint) {
        return dataPoint.path("attributes").get(0).path("value").path("stringValue").asText();
    }

    private static boolean holdsFinishedRequests(List<String> exports) throws IOException {
        String all = String.join("\n", exports);
        return all.contains("\"stringValue\":\"handoff\"") && all.contains("\"stringValue\":\"wake\"")
                && finishedCalls(exports) > 0;
    }

    /** The sample's calls the exports say finished (its server's requests, named by path alone, apart). */
    private static long finishedCalls(List<String> exports) throws IOException {
        long finished = 0;
        for (String line : exports) {
            for (JsonNode rm : new ObjectMapper().readTree(line).path("resourceMetrics")) {
                for (JsonNode m : hopscopeMetrics(rm)) {
                    if (m.path("name").asText().equals("hopscope.request.duration")) {
                        for (JsonNode p : m.path("histogram").path("dataPoints")) {
                            if (attribute(p).equals(LiveCommandIT.REQUEST)) {
                                finished = Math.max(finished, p.path("count").asLong());
                            }
                        }
                    }
                }
            }
        }
        return finished;
    }

    // hopscope's own scope: an export may also carry the SDK's scope (its reader's own metrics), first.
    private static List<JsonNode> hopscopeMetrics(JsonNode resourceMetrics) {
        List<JsonNode> metrics = new ArrayList<>();
        for (JsonNode scope : resourceMetrics.path("scopeMetrics")) {
            if (scope.path("scope").path("name").asText().equals("hopscope")) {
                scope.path("metrics").forEach(metrics::add);
            }
        }
        return metrics;
    }
}
