package io.hopscope.analyzer.model;

import java.util.List;

/**
 * A request's spans (hopscope.Span: pipeline policies, interceptors, nested boundaries): its time per
 * span name ({@code policies}), and each span by start while the request keeps its detail.
 */
public record Spans(List<PolicyTime> policies, List<Span> list) {

    public static final Spans NONE = new Spans(List.of(), List.of());

    /** Its outbound calls: the time per nested request boundary ({@code boundary} spans) it made. */
    public List<PolicyTime> calls() {
        return policies.stream().filter(p -> Span.BOUNDARY.equals(p.kind())).toList();
    }
}
