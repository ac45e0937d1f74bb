package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.threads.SegmentIndex;
import io.hopscope.analyzer.model.StackSample;
import io.hopscope.analyzer.read.JfrEvents;
import io.hopscope.analyzer.read.RecordingProblem;
import io.hopscope.analyzer.read.StackSamples;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/**
 * The second pass for extra joins ({@link RecordingAnalyzer#join}): a {@link SegmentJoin} receives the
 * event while it is current, so it cannot wait for its segment as the single pass's joins do. The
 * first pass fills a full index of segments (24 bytes a segment) and each request's id and name by
 * slot; the second streams just the joined event types against it.
 */
final class JoinPass {

    private final Map<String, SegmentJoin> joins = new LinkedHashMap<>();
    private final SegmentIndex index = new SegmentIndex();
    private long[] ids = new long[1024];
    private String[] names = new String[1024];
    private String[] traceIds = new String[1024];
    private String[] spanIds = new String[1024];
    private int slots;

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

    boolean isEmpty() {
        return joins.isEmpty();
    }

    /** Gives a new request its slot in the index. */
    void slot(RequestInProgress r) {
        if (slots == ids.length) {
            ids = Arrays.copyOf(ids, slots * 2);
            names = Arrays.copyOf(names, slots * 2);
            traceIds = Arrays.copyOf(traceIds, slots * 2);
            spanIds = Arrays.copyOf(spanIds, slots * 2);
        }
        r.joinSlot = slots++;
    }

    void addSegment(long javaThreadId, long start, long end, RequestInProgress r) {
        index.add(javaThreadId, start, end, r.joinSlot);
    }

    /**
     * Records a finished request's id, name and trace ids (known only at its end); one the report
     * leaves out ({@code kept} false: started outside its window) joins as no request.
     */
    void finished(RequestInProgress r, boolean kept) {
        ids[r.joinSlot] = kept ? r.id : 0;
        names[r.joinSlot] = r.name;
        traceIds[r.joinSlot] = r.traceId;
        spanIds[r.joinSlot] = r.spanId;
    }

    void run(JfrEvents jfr, Path file) throws RecordingProblem {
        index.freeze();
        Map<String, Consumer<RecordedEvent>> handlers = new LinkedHashMap<>();
        joins.forEach((name, join) -> handlers.put(name, e -> joined(e, join)));
        jfr.stream(file, handlers);
    }

    private void joined(RecordedEvent e, SegmentJoin join) {
        int slot = -1;
        RecordedThread thread = StackSamples.thread(e);
        if (thread != null) {
            long start = JfrEvents.startNanos(e);
            slot = index.find(thread.getJavaThreadId(), start, start);
        }
        long id = slot >= 0 ? ids[slot] : 0;
        // Only events inside a request are decoded: their frames are most of this pass's cost.
        if (id == 0) {
            join.accept(null, 0, null, null, null);
        } else {
            join.accept(StackSamples.of(e), id, names[slot], traceIds[slot], spanIds[slot]);
        }
    }
}
