package io.hopscope.analyzer.model;

/**
 * The part of one off-CPU interval that fell in one place of one request (a segment, or a wait of kind
 * {@code during}) on the interval's thread: {@code [fromEpochNanos, toEpochNanos)}, with the thread and
 * waker named as the kernel view names them. What the offwake flame graph and the trace draw.
 */
public record OffCpuOverlap(OffCpuInterval interval, long requestId, String requestName, String during,
                            String thread, String waker, long fromEpochNanos, long toEpochNanos) {

    public long nanos() {
        return toEpochNanos - fromEpochNanos;
    }
}
