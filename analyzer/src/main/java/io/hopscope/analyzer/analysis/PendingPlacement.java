package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.threads.SegmentWindow;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * JDK events waiting for the request whose segment they fall in, for the single pass. An event inside a
 * segment comes before that segment in the file (committed earlier on its thread, or by the sampler before
 * the same flush point), so it waits here and is placed at flush points against the {@link SegmentWindow},
 * by its thread and span; one whose segment has not come {@link #LAG} flush points later is outside every
 * request. Memory follows the events still waiting, not the file.
 *
 * @param <E> what placing an event needs besides its thread and span
 */
final class PendingPlacement<E> {

    // An event waits longer for its segment than a request waits for its stragglers
    // (RecordingAnalyzer's FINISH_LAG), since a long segment may commit later.
    private static final int LAG = 4;

    /** What to do with an event whose request was found: the span is the one it was looked up by. */
    @FunctionalInterface
    interface InRequest<E> {
        void place(E event, long javaThreadId, long startNanos, long endNanos, RequestInProgress request);
    }

    private final SegmentWindow<RequestInProgress> window;
    private final InRequest<E> inRequest;
    private final Consumer<E> outside;
    // One slot per waiting event, in the order they came; placing keeps that order for what still waits.
    private Object[] events = new Object[16];
    private long[] threads = new long[16];
    private long[] starts = new long[16];
    private long[] ends = new long[16];
    private long[] addedAt = new long[16];
    private int n;
    private long flushes;

    /**
     * Places against {@code window}: an event found in a request still in flight goes to {@code inRequest},
     * one in none (or only in finished ones) once it has waited long enough, to {@code outside}.
     */
    PendingPlacement(SegmentWindow<RequestInProgress> window, InRequest<E> inRequest, Consumer<E> outside) {
        this.window = window;
        this.inRequest = inRequest;
        this.outside = outside;
    }

    /** An event on that thread over [start, end] (a point when they are equal), placed at a later flush point. */
    void add(long javaThreadId, long startNanos, long endNanos, E event) {
        if (n == events.length) {
            resize(n * 2);
        }
        events[n] = event;
        threads[n] = javaThreadId;
        starts[n] = startNanos;
        ends[n] = endNanos;
        addedAt[n++] = flushes;
    }

    /** At flush point {@code flush}: places what waited, keeping what may still find its segment. */
    void onFlush(long flush) {
        flushes = flush;
        place(false);
    }

    /** At the end of the file: places what can be, the rest is outside. */
    void placeRemaining() {
        place(true);
    }

    private void place(boolean last) {
        if (n == 0) {
            return;
        }
        window.sort();
        int kept = 0;
        for (int i = 0; i < n; i++) {
            E event = event(i);
            RequestInProgress r = window.find(threads[i], starts[i], ends[i]);
            if (r != null && !r.finished) {
                inRequest.place(event, threads[i], starts[i], ends[i], r);
            } else if (!last && addedAt[i] > flushes - LAG) {
                // its segment may still come
                events[kept] = event;
                threads[kept] = threads[i];
                starts[kept] = starts[i];
                ends[kept] = ends[i];
                addedAt[kept++] = addedAt[i];
            } else {
                outside.accept(event);
            }
        }
        Arrays.fill(events, kept, n, null);
        n = kept;
        if (events.length > 64 && n < events.length / 4) {
            resize(events.length / 2);
        }
    }

    @SuppressWarnings("unchecked")
    private E event(int i) {
        return (E) events[i];
    }

    private void resize(int length) {
        events = Arrays.copyOf(events, length);
        threads = Arrays.copyOf(threads, length);
        starts = Arrays.copyOf(starts, length);
        ends = Arrays.copyOf(ends, length);
        addedAt = Arrays.copyOf(addedAt, length);
    }
}
