package io.hopscope.analyzer.model;

import java.util.List;

/**
 * What the kernel saw of one request (from {@code offwake --events}): off-CPU and run-queue time,
 * context switches and futex waits of the request's threads inside its segments and waits, per place
 * ({@code during}) and in total, and who woke them. {@code incomplete}: a segment or wait of the request
 * overlaps a window in which the tracer lost records, so these figures may be too low (lower bounds),
 * and its wakers may miss some.
 */
public record KernelView(long requestId, long offCpuNanos, long runQueueNanos, long contextSwitches, long futexWaits,
                         List<Place> during, List<Waker> wakers, boolean incomplete) {

    public static KernelView empty(long requestId) {
        return new KernelView(requestId, 0, 0, 0, 0, List.of(), List.of(), false);
    }

    /** The same figures, marked incomplete. */
    public KernelView markedIncomplete() {
        return new KernelView(requestId, offCpuNanos, runQueueNanos, contextSwitches, futexWaits, during, wakers, true);
    }

    /** The same figures inside one kind of place: a wait kind ({@code Mono.block}, ...) or {@code segment}. */
    public record Place(String during, long offCpuNanos, long runQueueNanos, long contextSwitches, long futexWaits) {
    }
}
