package io.hopscope.analyzer.model;

/**
 * A blocking wait of the request ({@code hopscope.Wait}), e.g. {@code Mono.block}; {@code waker} is
 * null when it was not seen, {@code wakeLatencyNanos} -1 then.
 */
public record Wait(String kind, ThreadRef thread, ThreadRef waker, long startEpochNanos,
                   long endEpochNanos, long wakeLatencyNanos, boolean nonBlockingThread, String outcome) {

    public long durationNanos() {
        return endEpochNanos - startEpochNanos;
    }
}
