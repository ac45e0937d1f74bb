package io.hopscope.analyzer.export;

import io.hopscope.analyzer.model.RequestKinds;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.exporter.internal.otlp.metrics.MetricsRequestMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * {@code live --otlp}: the figures {@code live} prints, as OTLP metrics (OTLP/HTTP protobuf), gathered by
 * the OpenTelemetry Java SDK. Per request name, histograms of each
 * finished request's duration (s), hops, queue delay and wake latency (s), and each server request's
 * time in its server's queue (s; a server's hand-overs are in no hop figure); counters of finished
 * requests and of hops by kind; gauges of requests in flight and of the process's live threads; and
 * {@code hopscope.export.dropped}, the batches live dropped by signal while its endpoints were away. The
 * caller feeds it the agent's events and calls {@link #collect} once an interval: the export, serialized
 * by the SDK's own OTLP marshaler, goes to an {@link Outbox} (which keeps it through an outage), not
 * over the SDK's exporter (which can only fail it).
 */
public final class LiveMetrics implements AutoCloseable {

    static final AttributeKey<String> REQUEST_NAME = AttributeKey.stringKey(Attribute.request_name.otlpKey);
    static final AttributeKey<String> HOP_KIND = AttributeKey.stringKey(Attribute.hop_kind.otlpKey);
    static final AttributeKey<String> SIGNAL = AttributeKey.stringKey("signal");
    // Requests whose end never comes (begun before the watch, lost events) must not grow the table for ever.
    private static final int MAX_OPEN = 100_000;
    private final SdkMeterProvider provider;
    private final DoubleHistogram duration;
    private final LongHistogram hops;
    private final DoubleHistogram queueDelay;
    private final DoubleHistogram wakeLatency;
    private final DoubleHistogram serverQueue;
    private final LongCounter requests;
    private final LongCounter hopsByKind;
    private final Map<Long, Open> open = new ConcurrentHashMap<>();
    private final Map<String, Attributes> byName = new ConcurrentHashMap<>();
    private final Map<String, Attributes> byKind = new ConcurrentHashMap<>();
    private final AtomicLong inFlight = new AtomicLong();

    /** What a request in flight has gathered so far. */
    private static final class Open {
        long hops;
        long queueDelayNanos;
        long wakeLatencyNanos;
        boolean serverQueued;
        long serverQueueNanos;
    }

    private LiveMetrics(URI uri, Headers headers, String service, LongSupplier liveThreads,
                        ToLongFunction<Outbox.Signal> dropped, Consumer<Outbox.Batch> out) {
        // The reader's own period is long: collect() exports, once an interval.
        provider = SdkMeterProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(
                        Attributes.of(AttributeKey.stringKey("service.name"), service))))
                .registerMetricReader(PeriodicMetricReader.builder(new ToOutbox(uri, headers, out)).setInterval(Duration.ofDays(1))
                        .build())
                .build();
        Meter meter = provider.get("hopscope");
        duration = meter.histogramBuilder("hopscope.request.duration").setUnit("s")
                .setDescription("Duration of each finished request").build();
        hops = meter.histogramBuilder("hopscope.request.hops").ofLongs().setUnit("{hop}")
                .setDescription("Hops of each finished request, every kind").build();
        queueDelay = meter.histogramBuilder("hopscope.request.queue_delay").setUnit("s")
                .setDescription("Queue delay of each finished request, summed over its handoffs").build();
        wakeLatency = meter.histogramBuilder("hopscope.request.wake_latency").setUnit("s")
                .setDescription("Wake latency of each finished request, summed over its wakes").build();
        // Prometheus: hopscope_server_queue_duration_seconds.
        serverQueue = meter.histogramBuilder("hopscope.server.queue.duration").setUnit("s")
                .setDescription("Time each finished server request waited in its server's queue, apart from its"
                        + " queue delay").build();
        requests = meter.counterBuilder("hopscope.requests").setUnit("{request}")
                .setDescription("Finished requests").build();
        hopsByKind = meter.counterBuilder("hopscope.hops").setUnit("{hop}")
                .setDescription("Hops by kind").build();
        meter.gaugeBuilder("hopscope.requests.in_flight").ofLongs().setUnit("{request}")
                .setDescription("Requests started and not finished").buildWithCallback(m -> m.record(inFlight.get()));
        meter.gaugeBuilder("hopscope.process.threads").ofLongs().setUnit("{thread}")
                .setDescription("Live threads of the watched JVM").buildWithCallback(m -> m.record(liveThreads.getAsLong()));
        // Prometheus: hopscope_export_dropped_total{signal="profiles"}.
        meter.counterBuilder("hopscope.export.dropped").setUnit("{batch}")
                .setDescription("Exports live dropped while their endpoint was away (profile windows, metrics exports),"
                        + " the oldest first")
                .buildWithCallback(m -> {
                    for (Outbox.Signal signal : Outbox.Signal.values()) {
                        m.record(dropped.applyAsLong(signal), Attributes.of(SIGNAL, signal.name()));
                    }
                });
    }

    /** The SDK's collections, serialized with its own OTLP marshaler, each a batch for the outbox. */
    private record ToOutbox(URI uri, Headers headers, Consumer<Outbox.Batch> out) implements MetricExporter {

        @Override
        public CompletableResultCode export(Collection<MetricData> metrics) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try {
                MetricsRequestMarshaler.create(metrics).writeBinaryTo(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e); // in memory: cannot happen
            }
            out.accept(new Outbox.Batch(Outbox.Signal.metrics, uri, bytes.toByteArray(), "application/x-protobuf", headers,
                    null));
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
            return AggregationTemporality.CUMULATIVE;
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }

    /**
     * Metrics for {@code endpoint} (an OTLP/HTTP base URL: /v1/metrics is added when it has no path), each
     * export a batch with {@code headers} for {@code out}; {@code dropped} says how many batches of a signal
     * were dropped so far.
     */
    public static LiveMetrics start(URI endpoint, Headers headers, String service, LongSupplier liveThreads,
                                    ToLongFunction<Outbox.Signal> dropped, Consumer<Outbox.Batch> out) {
        return new LiveMetrics(uri(endpoint), headers, service, liveThreads, dropped, out);
    }

    /** Where the metrics go: {@code endpoint}'s path, or /v1/metrics when it has none. */
    public static URI uri(URI endpoint) {
        String path = endpoint.getRawPath() == null || endpoint.getRawPath().isEmpty() || "/".equals(endpoint.getRawPath())
                ? "/v1/metrics" : endpoint.getRawPath();
        return URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority() + path);
    }

    /**
     * Another JVM is watched now (live --wait): the requests in flight in the last one will not end, and
     * the new one numbers its requests from 1 again. The counters and histograms go on.
     */
    public void newTarget() {
        open.clear();
        inFlight.set(0);
    }

    public void started(long requestId) {
        if (open.size() < MAX_OPEN && open.putIfAbsent(requestId, new Open()) == null) {
            inFlight.incrementAndGet();
        }
    }

    /** A hop; a server's hand-over ({@code serverQueue}) counts in the request's server queue, in no hop figure. */
    public void hop(long requestId, String kind, long delayNanos, boolean serverQueue) {
        Open o = open.get(requestId);
        if (serverQueue) {
            if (o != null) {
                synchronized (o) {
                    o.serverQueued = true;
                    o.serverQueueNanos += Math.max(0, delayNanos);
                }
            }
            return;
        }
        hopsByKind.add(1, byKind.computeIfAbsent(kind == null ? "?" : kind, k -> Attributes.of(HOP_KIND, k)));
        if (o != null) {
            synchronized (o) {
                o.hops++;
                if ("handoff".equals(kind)) {
                    o.queueDelayNanos += Math.max(0, delayNanos);
                } else if ("wake".equals(kind)) {
                    o.wakeLatencyNanos += Math.max(0, delayNanos);
                }
            }
        }
    }

    /**
     * A finished request of {@code kind} (null: not recorded); its hop figures, and a server request's
     * server queue, only when its start was seen (else they would be partial).
     */
    public void finished(long requestId, String name, String kind, long durationNanos) {
        Attributes a = attributes(name == null ? "?" : name);
        requests.add(1, a);
        duration.record(durationNanos / 1e9, a);
        Open o = open.remove(requestId);
        if (o != null) {
            inFlight.decrementAndGet();
            synchronized (o) {
                hops.record(o.hops, a);
                queueDelay.record(o.queueDelayNanos / 1e9, a);
                wakeLatency.record(o.wakeLatencyNanos / 1e9, a);
                if (o.serverQueued || RequestKinds.SERVER.equals(kind)) {
                    serverQueue.record(o.serverQueueNanos / 1e9, a);
                }
            }
        }
    }

    // A request name's attributes, made once: thousands of requests a second end under a few names.
    private Attributes attributes(String name) {
        Attributes a = byName.get(name);
        if (a == null) {
            a = Attributes.of(REQUEST_NAME, name);
            if (byName.size() < MAX_OPEN) {
                byName.put(name, a);
            }
        }
        return a;
    }

    /** Collects what was gathered into one export, a batch for the outbox. */
    public void collect() {
        provider.forceFlush().join(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        provider.shutdown().join(10, TimeUnit.SECONDS);
    }
}
