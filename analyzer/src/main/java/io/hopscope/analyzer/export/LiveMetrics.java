package io.hopscope.analyzer.export;

import io.hopscope.analyzer.model.RequestKinds;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code live --otlp}: the figures {@code live} prints, as OTLP metrics sent with the OpenTelemetry Java
 * SDK's own exporter (OTLP/HTTP protobuf, the JDK's HTTP client). Per request name, histograms of each
 * finished request's duration (s), hops, queue delay and wake latency (s), and each server request's
 * time in its server's queue (s; a server's hand-overs are in no hop figure); counters of finished
 * requests and of hops by kind; gauges of requests in flight and of the process's live threads. The
 * caller feeds it the agent's events and calls {@link #flush} once an interval: a failed export is
 * its one-line message, never the SDK's log.
 */
public final class LiveMetrics implements AutoCloseable {

    static final AttributeKey<String> REQUEST_NAME = AttributeKey.stringKey(Attribute.request_name.otlpKey);
    static final AttributeKey<String> HOP_KIND = AttributeKey.stringKey(Attribute.hop_kind.otlpKey);
    // Requests whose end never comes (begun before the watch, lost events) must not grow the table for ever.
    private static final int MAX_OPEN = 100_000;
    // The SDK logs a failed export with its stack trace through java.util.logging; flush says it in one
    // line instead. Held here: a logger's level lasts only as long as someone references it.
    private static final Logger SDK_LOG = Logger.getLogger("io.opentelemetry");

    private final SdkMeterProvider provider;
    private final Headers headers;
    private final URI uri;
    private final DoubleHistogram duration;
    private final LongHistogram hops;
    private final DoubleHistogram queueDelay;
    private final DoubleHistogram wakeLatency;
    private final DoubleHistogram serverQueue;
    private final LongCounter requests;
    private final LongCounter hopsByKind;
    private final Map<Long, Open> open = new ConcurrentHashMap<>();
    private final AtomicLong inFlight = new AtomicLong();

    /** What a request in flight has gathered so far. */
    private static final class Open {
        long hops;
        long queueDelayNanos;
        long wakeLatencyNanos;
        boolean serverQueued;
        long serverQueueNanos;
    }

    private LiveMetrics(URI uri, Headers headers, String service, LongSupplier liveThreads) {
        SDK_LOG.setLevel(Level.OFF);
        this.uri = uri;
        this.headers = headers;
        OtlpHttpMetricExporter exporter = OtlpHttpMetricExporter.builder()
                .setEndpoint(uri.toString())
                .setHeaders(headers::values)
                .setTimeout(Duration.ofSeconds(10))
                .setRetryPolicy(null)
                .build();
        // The reader's own period is long: flush() exports, once an interval, and learns the outcome.
        provider = SdkMeterProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(
                        Attributes.of(AttributeKey.stringKey("service.name"), service))))
                .registerMetricReader(PeriodicMetricReader.builder(exporter).setInterval(Duration.ofDays(1)).build())
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
    }

    /** Metrics for {@code endpoint} (an OTLP/HTTP base URL: /v1/metrics is added when it has no path). */
    public static LiveMetrics start(URI endpoint, Headers headers, String service, LongSupplier liveThreads) {
        String path = endpoint.getRawPath() == null || endpoint.getRawPath().isEmpty() || "/".equals(endpoint.getRawPath())
                ? "/v1/metrics" : endpoint.getRawPath();
        URI uri = URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority() + path);
        return new LiveMetrics(uri, headers, service, liveThreads);
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
        hopsByKind.add(1, Attributes.of(HOP_KIND, kind));
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
        Attributes a = Attributes.of(REQUEST_NAME, name == null ? "?" : name);
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

    /**
     * Exports what was gathered; null when the endpoint took it, else one line saying why not. Null
     * too when the calling thread is interrupted (live is stopping): then the outcome is not known.
     */
    public String flush() {
        CompletableResultCode result = provider.forceFlush().join(30, TimeUnit.SECONDS);
        if (result.isSuccess() || !result.isDone() && Thread.currentThread().isInterrupted()) {
            return null;
        }
        Throwable t = result.getFailureThrowable();
        String why = t == null ? (result.isDone() ? "refused" : "no answer within 30 s")
                : t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return uri + ": metrics not sent: " + headers.scrub(why.replaceAll("\\s+", " ").strip());
    }

    @Override
    public void close() {
        provider.shutdown().join(10, TimeUnit.SECONDS);
    }
}
