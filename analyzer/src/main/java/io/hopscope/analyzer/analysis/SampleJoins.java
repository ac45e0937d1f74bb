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
import io.hopscope.analyzer.read.JfrEvent;

/**
 * The extra joins ({@link RecordingAnalyzer#join}), in the analyzer's single pass. A joined JDK event
 * waits for the segment it falls in at its start ({@link PendingPlacement}, as {@link JdkEventAttribution}'s
 * events do); a placed event then waits with its request until that finishes (its name and trace ids are
 * known only at its end) and goes to the joins. Memory follows the pending events and those of the
 * requests in flight, not the file; frames are decoded only for the events of requests the report keeps.
 */
final class SampleJoins {

    /** A joined event, with the joins of its type. */
    private record Joined(StackSamples.Captured event, SegmentJoin join) {
    }

    private final Map<String, SegmentJoin> joins = new LinkedHashMap<>();
    private final PendingPlacement<Joined> pending;
    private final Map<RequestInProgress, List<Joined>> placed = new IdentityHashMap<>();

    SampleJoins(SegmentWindow<RequestInProgress> window) {
        this.pending = new PendingPlacement<>(window,
                (joined, thread, start, end, r) -> placed.computeIfAbsent(r, k -> new ArrayList<>()).add(joined),
                joined -> outside(joined.join()));
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
            public void accept(StackSample e, long id, String name, String kind, String traceId, String spanId) {
                a.accept(e, id, name, kind, traceId, spanId);
                b.accept(e, id, name, kind, traceId, spanId);
            }
        });
    }

    /** The pass's handler of each joined type: reads what the join needs before the stream reuses the event. */
    Map<String, Consumer<JfrEvent>> handlers() {
        Map<String, Consumer<JfrEvent>> handlers = new LinkedHashMap<>();
        joins.forEach((name, join) -> handlers.put(name, e -> {
            StackSamples.Captured event = StackSamples.capture(e);
            if (event.javaThreadId() < 0) {
                outside(join);
            } else {
                pending.add(event.javaThreadId(), event.startNanos(), event.startNanos(), new Joined(event, join));
            }
        }));
        return handlers;
    }

    /** At flush point {@code flush}: places what waited, keeping what may still find its segment. */
    void onFlush(long flush) {
        pending.onFlush(flush);
    }

    /** At the end of the file, before the last requests finish: places what can be, the rest is outside. */
    void placeRemaining() {
        pending.placeRemaining();
    }

    /**
     * The request is complete: its events go to the joins with its id, name, kind and trace ids; those of
     * one the report leaves out ({@code kept} false: started outside its window) as no request's.
     */
    void finished(RequestInProgress r, boolean kept) {
        List<Joined> events = placed.remove(r);
        if (events == null) {
            return;
        }
        for (Joined joined : events) {
            if (kept) {
                joined.join().accept(joined.event().sample(), r.id, r.name, r.kind, r.traceId, r.spanId);
            } else {
                outside(joined.join());
            }
        }
    }

    /** At the end: the events of requests that never finished (no hopscope.Request event) are no request's. */
    void dropUnfinished() {
        placed.values().forEach(events -> events.forEach(joined -> outside(joined.join())));
        placed.clear();
    }

    private static void outside(SegmentJoin join) {
        join.accept(null, 0, null, null, null, null);
    }
}
