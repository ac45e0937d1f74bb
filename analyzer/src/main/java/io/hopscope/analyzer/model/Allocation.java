package io.hopscope.analyzer.model;

import java.util.List;

/**
 * What a request's threads allocated inside its segments: {@code bytes}, exact but for
 * {@code estimatedBytes} of it (the allocation samples of threads whose segments had no allocation
 * counter: virtual threads on JDK 21-25), and the sampled sites that allocated most ({@code sites}).
 */
public record Allocation(long bytes, long estimatedBytes, List<AllocationSite> sites) {

    public static final Allocation NONE = new Allocation(0, 0, List.of());
}
