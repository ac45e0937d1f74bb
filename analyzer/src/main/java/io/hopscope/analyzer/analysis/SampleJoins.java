package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.threads.SegmentWindow;
import io.hopscope.analyzer.model.StackSample;
import io.hopscope.analyzer.read.StackSamples;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The extra joins ({@link RecordingAnalyzer#join}), in the analyzer's single pass. A joined JDK event
 * comes before the segment it falls in (committed earlier on its thread, or by the sampler before the
 * same flush point), so it waits in a pending list and is placed at flush points against the
 * {@link SegmentWindow}, as {@link JdkEventAttribution}'s events are; one whose segment has not come
 * {@link #PENDING_LAG} flush points later is outside every request. A placed event then waits with
 * its request until that finishes (its name and trace ids are known only at its end) and goes to the
 * joins. Memory follows the pending events and those of the requests in flight, not the file; frames
 * are decoded only for the events of requests the report keeps.
 */
final class SampleJoins {

    // As long as JdkEventAttribution's events wait for their segment.
    private static final int PENDING_LAG = 4;

    /** A joined event waiting for its request, with the joins of its type. */
    private record Pending(StackSamples.Captured event, SegmentJoin join, long flush) {
    }

    private final Map<String, SegmentJoin> joins = new LinkedHashMap<>();
    private final SegmentWindow<RequestInProgress> window;
    private List<Pending> pending = new ArrayList<>();
    private final Map<RequestInProgress, List<Pending>> placed = new IdentityHashMap<>();
    private long flushes;

    SampleJoins(SegmentWindow<RequestInProgress> window) {
        this.window = window;
    }

    /** Several joins for one type run in the order they were added. */
    void add(String eventName, SegmentJoin join) {
        joins.merge(eventName, join, (a, b) -> new SegmentJoin() {
            @Override
            public void accept(StackSample e, long id, String name) {
                a.accept(e, id, name);
                b.accept(e, id, name);
            }

            @Override
            public void accept(StackSample e, long id, String name, String traceId, String spanId) {
                a.accept(e, id, name, traceId, spanId);
                b.accept(e, id, name, traceId, spanId);
            }
        });
    }

    /** The pass's handler of each joined type: reads what the join needs before the stream reuses the event. */
    Map<String, Consumer<RecordedEvent>> handlers() {
        Map<String, Consumer<RecordedEvent>> handlers = new LinkedHashMap<>();
        joins.forEach((name, join) -> handlers.put(name, e -> {
            StackSamples.Captured event = StackSamples.capture(e);
            if (event.javaThreadId() < 0) {
                outside(join);
            } else {
                pending.add(new Pending(event, join, flushes));
            }
        }));
        return handlers;
    }

    /** At flush point {@code flush}: places what waited, keeping what may still find its segment. */
    void onFlush(long flush) {
        flushes = flush;
        place(false);
    }

    /** At the end of the file, before the last requests finish: places what can be, the rest is outside. */
    void placeRemaining() {
        place(true);
    }

    private void place(boolean last) {
        if (pending.isEmpty()) {
            return;
        }
        window.sort();
        List<Pending> keep = new ArrayList<>();
        for (Pending p : pending) {
            StackSamples.Captured e = p.event();
            RequestInProgress r = window.find(e.javaThreadId(), e.startNanos(), e.startNanos());
            if (r != null && !r.finished) {
                placed.computeIfAbsent(r, k -> new ArrayList<>()).add(p);
            } else if (!last && p.flush() > flushes - PENDING_LAG) {
                keep.add(p); // its segment may still come
            } else {
                outside(p.join());
            }
        }
        pending = keep;
    }

    /**
     * The request is complete: its events go to the joins with its id, name and trace ids; those of
     * one the report leaves out ({@code kept} false: started outside its window) as no request's.
     */
    void finished(RequestInProgress r, boolean kept) {
        List<Pending> events = placed.remove(r);
        if (events == null) {
            return;
        }
        for (Pending p : events) {
            if (kept) {
                p.join().accept(p.event().sample(), r.id, r.name, r.traceId, r.spanId);
            } else {
                outside(p.join());
            }
        }
    }

    /** At the end: the events of requests that never finished (no hopscope.Request event) are no request's. */
    void dropUnfinished() {
        placed.values().forEach(events -> events.forEach(p -> outside(p.join())));
        placed.clear();
    }

    private static void outside(SegmentJoin join) {
        join.accept(null, 0, null, null, null);
    }
}
