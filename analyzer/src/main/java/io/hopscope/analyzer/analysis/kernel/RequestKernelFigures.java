package io.hopscope.analyzer.analysis.kernel;

import io.hopscope.analyzer.model.KernelView;
import io.hopscope.analyzer.model.Waker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kernel figures of one request while {@link OffCpuAttribution} streams the eBPF file: totals per place kind
 * and the wakers that ended its off-CPU intervals, with their stacks, capped ({@link #MAX_WAKERS},
 * {@link #MAX_STACKS}); turned into a {@link KernelView} at the end.
 */
final class RequestKernelFigures {

    static final int MAX_WAKERS = 16;
    static final int MAX_STACKS = 3;
    static final String OTHER = "(other)";
    static final Comparator<Waker> WAKER_ORDER = Comparator.comparingLong(Waker::count).reversed()
            .thenComparing(Waker::waker).thenComparing(Waker::thread).thenComparing(Waker::during);

    /** Kernel totals of one request (or of one place kind inside it). */
    static final class Totals {
        long offCpuNanos;
        long runQueueNanos;
        long contextSwitches;
        long futexWaits;
    }

    private static final class WakerTotals {
        long count;
        long futexWakes;
        long offCpuNanos;
        long runQueueNanos;
        final Map<String, long[]> stacks = new HashMap<>();
    }

    final long id;
    final int slot;
    String name;
    boolean ended;
    /** A place of it overlaps a window of lost records. */
    boolean incomplete;
    final Totals total = new Totals();
    // Made on the first interval: most requests of a long recording may have none.
    private Map<String, Totals> byPlace;
    private Map<String, WakerTotals> wakers;
    private Map<String, Long> waitsEnded;
    private long lastFutexTid = -1;
    private long lastFutexEnter = -1;

    RequestKernelFigures(long id, int slot) {
        this.id = id;
        this.slot = slot;
    }

    /** Adds the part of an off-CPU interval that falls in one place of this request. */
    void addOffCpu(String place, long offCpuNanos, long runQueueNanos, boolean switchedOutHere, boolean futexWait,
                   long tid, long futexEnterEpochNanos) {
        if (byPlace == null) {
            byPlace = new TreeMap<>();
            wakers = new LinkedHashMap<>();
        }
        Totals t = byPlace.computeIfAbsent(place, p -> new Totals());
        total.offCpuNanos += offCpuNanos;
        t.offCpuNanos += offCpuNanos;
        total.runQueueNanos += runQueueNanos;
        t.runQueueNanos += runQueueNanos;
        if (switchedOutHere) {
            total.contextSwitches++;
            t.contextSwitches++;
            // One futex call can go off CPU several times (spurious wakeups): count the call once.
            if (futexWait && !(lastFutexTid == tid && lastFutexEnter == futexEnterEpochNanos)) {
                total.futexWaits++;
                t.futexWaits++;
                lastFutexTid = tid;
                lastFutexEnter = futexEnterEpochNanos;
            }
        }
    }

    /**
     * Counts the waker that ended an interval in place {@code place} of thread {@code thread}, and its
     * stack {@code stackWeight} times: an interval offwake sampled stands for that many, one it did not
     * (weight 0) has no stack to count.
     */
    void addWaker(String waker, String thread, String place, boolean futexWake, long offCpuNanos, long runQueueNanos,
                  String stack, int stackWeight) {
        String key = waker + '\0' + thread + '\0' + place;
        WakerTotals w = wakers.get(key);
        if (w == null) {
            if (wakers.size() >= MAX_WAKERS) {
                key = OTHER + '\0' + thread + '\0' + OTHER;
            }
            w = wakers.computeIfAbsent(key, x -> new WakerTotals());
        }
        w.count++;
        if (futexWake) {
            w.futexWakes++;
        }
        w.offCpuNanos += offCpuNanos;
        w.runQueueNanos += Math.max(0, runQueueNanos);
        if (stackWeight == 0) {
            return;
        }
        long[] c = w.stacks.get(stack);
        if (c == null && w.stacks.size() >= 4 * MAX_STACKS) {
            stack = OTHER;
            c = w.stacks.get(stack);
        }
        if (c == null) {
            c = new long[1];
            w.stacks.put(stack, c);
        }
        c[0] += stackWeight;
    }

    /** Counts a wait of this request that the waker {@code key} (waker, thread, place) ended. */
    void waitEnded(String key) {
        if (waitsEnded == null) {
            waitsEnded = new HashMap<>();
        }
        waitsEnded.merge(key, 1L, Long::sum);
    }

    KernelView view() {
        if (byPlace == null) {
            return incomplete ? KernelView.empty(id).markedIncomplete() : KernelView.empty(id);
        }
        List<KernelView.Place> places = new ArrayList<>();
        byPlace.forEach((p, t) -> places.add(new KernelView.Place(p, t.offCpuNanos, t.runQueueNanos,
                t.contextSwitches, t.futexWaits)));
        List<Waker> list = new ArrayList<>();
        wakers.forEach((k, w) -> {
            String[] parts = k.split("\0", -1);
            List<Map.Entry<String, long[]>> stacks = new ArrayList<>(w.stacks.entrySet());
            stacks.sort(Comparator.comparingLong((Map.Entry<String, long[]> e) -> e.getValue()[0]).reversed()
                    .thenComparing(Map.Entry::getKey));
            List<Waker.WakerStack> top = stacks.stream().limit(MAX_STACKS)
                    .map(e -> new Waker.WakerStack(e.getKey(), e.getValue()[0])).toList();
            long ended = waitsEnded == null ? 0 : waitsEnded.getOrDefault(k, 0L);
            list.add(new Waker(parts[0], parts[1], parts[2], w.count, w.futexWakes, ended, w.offCpuNanos,
                    w.runQueueNanos, top));
        });
        list.sort(WAKER_ORDER);
        return new KernelView(id, total.offCpuNanos, total.runQueueNanos, total.contextSwitches,
                total.futexWaits, List.copyOf(places), List.copyOf(list), incomplete);
    }
}
