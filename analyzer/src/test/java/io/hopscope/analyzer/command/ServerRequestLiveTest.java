package io.hopscope.analyzer.command;

import static io.hopscope.analyzer.testing.ServerRequestRecording.CLIENT;
import static io.hopscope.analyzer.testing.ServerRequestRecording.HANDLER_QUEUE_NANOS;
import static io.hopscope.analyzer.testing.ServerRequestRecording.ROUTE;
import static io.hopscope.analyzer.testing.ServerRequestRecording.SERVER_QUEUE_NANOS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hopscope.analyzer.analysis.live.LiveFigures;
import io.hopscope.analyzer.export.Headers;
import io.hopscope.analyzer.export.LiveMetrics;
import io.hopscope.analyzer.export.Outbox;
import io.hopscope.analyzer.model.LiveInterval;
import io.hopscope.analyzer.output.LiveJson;
import io.hopscope.analyzer.output.LiveText;
import io.hopscope.analyzer.testing.LiveJsonKeys;
import io.hopscope.analyzer.testing.ServerRequestRecording;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.consumer.EventStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code live}'s server queue, fed the events of a {@link ServerRequestRecording} through the same
 * handlers as the target's stream ({@link LiveCommand#feed}): the interval's mean and max over the
 * server requests that ended in it, in text and {@code --json}, and the OTLP histogram
 * {@code hopscope.server.queue.duration} a local endpoint receives. One interval holds every event: it
 * is 2^62 ns long, aligned on the epoch, so no figure depends on when the test ran.
 */
class ServerRequestLiveTest {

    private static final long WHOLE = 1L << 62;

    @TempDir
    static Path dir;
    static Path jfr;

    @BeforeAll
    static void record() throws Exception {
        jfr = dir.resolve("server.jfr");
        ServerRequestRecording.write(jfr, SERVER_QUEUE_NANOS);
    }

    /** The recording read as live reads its stream, into {@code metrics} too when not null. */
    private static LiveInterval replay(LiveMetrics metrics) throws Exception {
        LiveFigures figures = new LiveFigures(WHOLE);
        try (EventStream stream = EventStream.openFile(jfr)) {
            LiveCommand.feed(stream, figures, metrics);
            stream.start();
        }
        figures.tick(WHOLE); // the stream has passed the interval
        List<LiveInterval> passed = figures.passed();
        assertThat(passed).hasSize(1);
        return passed.get(0);
    }

    private static LiveInterval.Name name(LiveInterval interval, String name) {
        return interval.names().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theIntervalHasTheServerQueueOfItsServerRequestsApartFromTheQueueDelay() throws Exception {
        LiveInterval interval = replay(null);
        LiveInterval.Name route = name(interval, ROUTE);
        assertThat(route.finished()).isEqualTo(2);
        assertThat(route.measured()).isEqualTo(2);
        // Request 1 waited 2.5 ms in the server's queue, request 2 was not handed over.
        assertThat(route.serverQueueNanos()).isEqualTo(SERVER_QUEUE_NANOS / 2);
        assertThat(route.serverQueueMaxNanos()).isEqualTo(SERVER_QUEUE_NANOS);
        assertThat(route.queueDelayNanos()).isEqualTo(HANDLER_QUEUE_NANOS / 2);
        assertThat(route.hopsPerRequestByKind()).containsExactlyInAnyOrderEntriesOf(Map.of("handoff", 0.5, "wake", 0.5));
        LiveInterval.Name client = name(interval, CLIENT);
        assertThat(client.finished()).isEqualTo(1);
        assertThat(client.serverQueueNanos()).isNull();
        assertThat(client.serverQueueMaxNanos()).isNull();

        List<String> text = LiveText.lines(interval);
        assertThat(text).filteredOn(l -> l.startsWith("  " + ROUTE + "  ")).singleElement().asString()
                .contains("  hops/req 1.0 (handoff 0.5, wake 0.5)  server queue 1.25 ms (max 2.50 ms)  queue 200.0 us  wake 15.0 us");
        assertThat(text).filteredOn(l -> l.startsWith("  " + CLIENT + "  ")).singleElement().asString()
                .doesNotContain("server queue");

        JsonNode json = LiveJsonKeys.parse(LiveJson.line(interval));
        for (JsonNode n : json.get("names")) {
            if (n.get("name").asText().equals(ROUTE)) {
                assertThat(n.get("serverQueueNanos").asLong()).isEqualTo(SERVER_QUEUE_NANOS / 2);
                assertThat(n.get("serverQueueMaxNanos").asLong()).isEqualTo(SERVER_QUEUE_NANOS);
                assertThat(n.get("queueDelayNanos").asLong()).isEqualTo(HANDLER_QUEUE_NANOS / 2);
            } else {
                assertThat(n.get("serverQueueNanos").isNull()).isTrue();
                assertThat(n.get("serverQueueMaxNanos").isNull()).isTrue();
            }
        }
    }

    @Test
    void otlpHasAServerQueueHistogramPerRequestNameAndNoHandOverAmongTheHops() throws Exception {
        List<Outbox.Batch> batches = new CopyOnWriteArrayList<>();
        try (LiveMetrics metrics = LiveMetrics.start(URI.create("http://127.0.0.1:4318"), Headers.NONE, "orders", () -> 7,
                signal -> signal == Outbox.Signal.profiles ? 2 : 0, batches::add)) {
            replay(metrics);
            metrics.collect();
        }
        assertThat(batches).isNotEmpty().allSatisfy(b -> {
            assertThat(b.signal()).isEqualTo(Outbox.Signal.metrics);
            assertThat(b.uri()).hasToString("http://127.0.0.1:4318/v1/metrics");
        });
        List<ExportMetricsServiceRequest> received = new ArrayList<>();
        for (Outbox.Batch b : batches) {
            received.add(ExportMetricsServiceRequest.parseFrom(b.body()));
        }
        Map<String, Metric> metrics = new HashMap<>();
        received.get(0).getResourceMetricsList().forEach(rm -> rm.getScopeMetricsList().forEach(sm ->
                sm.getMetricsList().forEach(m -> metrics.put(m.getName(), m))));
        // Through the Collector's Prometheus exporter: hopscope_server_queue_duration_seconds.
        Metric serverQueue = metrics.get("hopscope.server.queue.duration");
        assertThat(serverQueue).isNotNull();
        assertThat(serverQueue.getUnit()).isEqualTo("s");
        assertThat(serverQueue.getHistogram().getDataPointsList()).singleElement().satisfies(p -> {
            assertThat(attributes(p.getAttributesList())).containsExactly(Map.entry("hopscope.request.name", ROUTE));
            assertThat(p.getCount()).isEqualTo(2);
            assertThat(p.getSum()).isEqualTo(SERVER_QUEUE_NANOS / 1e9);
            assertThat(p.getMax()).isEqualTo(SERVER_QUEUE_NANOS / 1e9);
        });
        HistogramDataPoint queueDelay = metrics.get("hopscope.request.queue_delay").getHistogram().getDataPointsList()
                .stream().filter(p -> attributes(p.getAttributesList()).containsValue(ROUTE)).findFirst().orElseThrow();
        assertThat(queueDelay.getSum()).isEqualTo(HANDLER_QUEUE_NANOS / 1e9);
        Map<String, Long> hops = new HashMap<>();
        metrics.get("hopscope.hops").getSum().getDataPointsList().forEach(p ->
                hops.put(attributes(p.getAttributesList()).get("hopscope.hop.kind"), p.getAsInt()));
        assertThat(hops).containsExactlyInAnyOrderEntriesOf(Map.of("handoff", 1L, "wake", 1L));
        // What the outboxes dropped, by signal, sent beside the figures (Prometheus: hopscope_export_dropped_total).
        Map<String, Long> dropped = new HashMap<>();
        metrics.get("hopscope.export.dropped").getSum().getDataPointsList().forEach(p ->
                dropped.put(attributes(p.getAttributesList()).get("signal"), p.getAsInt()));
        assertThat(dropped).containsExactlyInAnyOrderEntriesOf(Map.of("profiles", 2L, "metrics", 0L));
        assertThat(metrics.get("hopscope.export.dropped").getSum().getIsMonotonic()).isTrue();
    }

    private static Map<String, String> attributes(List<KeyValue> list) {
        Map<String, String> m = new HashMap<>();
        list.forEach(kv -> m.put(kv.getKey(), kv.getValue().getStringValue()));
        return m;
    }
}
