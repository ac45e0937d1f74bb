package io.hopscope.analyzer.analysis.kernel;

import io.hopscope.analyzer.analysis.threads.SegmentLane;
import java.util.Arrays;

/**
 * Places (segments and waits of requests) of one OS thread for {@link OffCpuAttribution}: the request's slot
 * and the place's kind per entry, and, once frozen, the switch-in time and waker of the last woken
 * off-CPU interval in each place (what ended a wait).
 */
final class ThreadPlaces extends SegmentLane {

    int[] slots = new int[8];
    int[] places = new int[8];
    long[] lastOn;
    int[] lastWaker;

    ThreadPlaces() {
        super(8);
    }

    void add(long start, long end, int slot, int place) {
        // append may grow the payload arrays, so take the index before naming them.
        int i = append(start, end);
        slots[i] = slot;
        places[i] = place;
    }

    @Override
    protected void resizePayload(int length) {
        slots = Arrays.copyOf(slots, length);
        places = Arrays.copyOf(places, length);
    }

    @Override
    protected void reorderPayload(int[] order, int from) {
        permute(slots, order, from);
        permute(places, order, from);
    }

    /** Sorts the places by start once every one is known, ready for lookups. */
    void freeze() {
        sort();
        lastOn = new long[n];
        lastWaker = new int[n];
        Arrays.fill(lastWaker, -1);
    }
}
