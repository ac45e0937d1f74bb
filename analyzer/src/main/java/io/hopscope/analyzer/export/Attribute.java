package io.hopscope.analyzer.export;

/**
 * The attributes export puts on a sample, each of bounded cardinality: backends turn them into series
 * labels (Pyroscope makes one of every pprof label but span_id), so a request id is never one of them.
 * The OTLP key follows OpenTelemetry's dotted style; the pprof label is a valid Prometheus label name.
 */
public enum Attribute {
    /** The request's name as the agent gave it (e.g. {@code GET /users/{id}}, a client's operation). */
    request_name("hopscope.request.name", "request_name"),
    /** The request's kind: server (an inbound request), client or internal; absent in a recording from before the field. */
    request_kind("hopscope.request.kind", "request_kind"),
    /** The thread's pool: its name without the trailing number ({@code reactor-http-epoll-3} is {@code reactor-http-epoll}). */
    thread_pool("thread.pool", "thread_pool"),
    /** The hop's kind: handoff, wake or return. */
    hop_kind("hopscope.hop.kind", "hop_kind"),
    /** What carried the hop (the executor or operator the agent saw). */
    hop_via("hopscope.hop.via", "hop_via");

    final String otlpKey;
    final String pprofLabel;

    Attribute(String otlpKey, String pprofLabel) {
        this.otlpKey = otlpKey;
        this.pprofLabel = pprofLabel;
    }

    public String otlpKey() {
        return otlpKey;
    }

    public String pprofLabel() {
        return pprofLabel;
    }
}
