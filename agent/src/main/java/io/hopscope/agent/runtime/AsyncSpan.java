package io.hopscope.agent.runtime;

/** An asynchronous span captured at assembly (a policy's process call) that starts at subscription. */
public final class AsyncSpan {

    final RequestState request;
    final String kind;
    final String name;
    final long assemblyParentSpanId;
    final int assemblyDepth;

    AsyncSpan(RequestState request, String kind, String name, long assemblyParentSpanId, int assemblyDepth) {
        this.request = request;
        this.kind = kind;
        this.name = name;
        this.assemblyParentSpanId = assemblyParentSpanId;
        this.assemblyDepth = assemblyDepth;
    }
}
