package io.hopscope.analyzer.read;

import java.util.Arrays;

/**
 * Maps Linux {@code CLOCK_MONOTONIC} (what eBPF tracers stamp) to the recording's epoch nanoseconds,
 * from the agent's {@code hopscope.ClockSync} events: each gives {@code startTime - monotonicNanos};
 * the median of these offsets is robust to the odd event delayed between the two clock reads.
 * One event per second, so the offsets kept here stay small even for long recordings.
 */
public final class ClockAlignment {

    private long[] offsets = new long[64];
    private int count;
    private long medianNanos;
    private boolean medianValid;

    /** Adds one ClockSync event: its JFR start time (epoch nanos) and its {@code monotonicNanos} field. */
    public void add(long startEpochNanos, long monotonicNanos) {
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, count * 2);
        }
        offsets[count++] = startEpochNanos - monotonicNanos;
        medianValid = false;
    }

    public int count() {
        return count;
    }

    public boolean isKnown() {
        return count > 0;
    }

    /** Median offset (epoch = monotonic + offset); 0 when no ClockSync event was seen. */
    public long offsetNanos() {
        if (count == 0) {
            return 0;
        }
        if (!medianValid) {
            long[] sorted = Arrays.copyOf(offsets, count);
            Arrays.sort(sorted);
            medianNanos = count % 2 == 1 ? sorted[count / 2]
                    : sorted[count / 2 - 1] + (sorted[count / 2] - sorted[count / 2 - 1]) / 2;
            medianValid = true;
        }
        return medianNanos;
    }

    /** A CLOCK_MONOTONIC time (e.g. from an eBPF record) in the recording's epoch nanoseconds. */
    public long toEpochNanos(long monotonicNanos) {
        return monotonicNanos + offsetNanos();
    }

    /** An epoch time of the recording in CLOCK_MONOTONIC nanoseconds. */
    public long toMonotonicNanos(long epochNanos) {
        return epochNanos - offsetNanos();
    }
}
