package io.hopscope.analyzer.model;

import java.util.List;

/**
 * What a request's virtual threads did on their carriers: {@code virtualThreads} of them were
 * mounted {@code mounts} times in all (hopscope.Mounts), on the carrier threads named in
 * {@code carrierNames} (distinct, at most {@link #MAX_NAMES}), waiting {@code mountWaitNanos} in all
 * to be mounted (the longest wait {@code maxMountWaitNanos}) and running mounted for
 * {@code mountedNanos}; {@code pinnedNanos} of the request's time its threads were pinned to a carrier
 * while they parked or blocked ({@code pinnedCount} jdk.VirtualThreadPinned events, 1 ms and over).
 */
public record CarrierUse(int virtualThreads, int mounts, List<String> carrierNames, long mountWaitNanos,
                       long maxMountWaitNanos, long mountedNanos, int pinnedCount, long pinnedNanos) {

    public static final int MAX_NAMES = 16;

    public static final CarrierUse NONE = new CarrierUse(0, 0, List.of(), 0, 0, 0, 0, 0);

    /** Whether there is anything to show: a virtual thread mounted, or a pin. */
    public boolean any() {
        return virtualThreads > 0 || pinnedCount > 0;
    }
}
