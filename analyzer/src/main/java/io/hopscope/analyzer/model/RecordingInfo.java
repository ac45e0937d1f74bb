package io.hopscope.analyzer.model;

import java.util.List;

/**
 * Process-level facts about one recording: its time span, whether the agent's events are there,
 * GC and thread figures, allocation inside and outside requests, and the warnings met while reading.
 *
 * <p>Allocation outside requests is estimated from {@code jdk.ObjectAllocationSample} weights
 * (sampled bytes on any thread vs sampled bytes inside request segments), because the exact per-thread
 * counter ({@code jdk.ThreadAllocationStatistics}) is not in the agent's settings.
 */
public record RecordingInfo(
        String file,
        long startEpochNanos,
        long endEpochNanos,
        boolean hasHopscopeEvents,
        long hopscopeEvents,
        long jdkEvents,
        String agentVersion,
        String agentOptions,
        long clockOffsetNanos,
        long clockSyncCount,
        long gcCount,
        long gcPauseNanos,
        long peakThreadCount,
        long requestsAllocatedBytes,
        long sampledAllocationBytes,
        long sampledAllocationBytesInRequests,
        long incompleteRequests,
        LateEvents lateEvents,
        List<String> warnings) {

    /** Estimated share of allocation outside requests (0..1), or -1 when there were no samples. */
    public double allocationOutsideRequestsShare() {
        if (sampledAllocationBytes <= 0) {
            return -1;
        }
        return Math.max(0, sampledAllocationBytes - sampledAllocationBytesInRequests) / (double) sampledAllocationBytes;
    }
}
