package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.TraceIds;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.read.EventFields;
import io.hopscope.analyzer.read.JfrEvents;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The agent's per-request events into the requests in flight: each request is made at its first
 * event, ended by its hopscope.Request event, and handed back by {@link #nextEnded} for the driver to
 * finish. An event of a request already finished goes to {@link FinishedRequests}, however late.
 */
final class RequestEvents {

    private final RecordingFacts facts;
    private final JfrEvents jfr;
    private final SegmentWindow window;
    private final Selection selection;
    private final JoinPass joins;
    private final DetailBudget budget;
    private final LongMap<RequestAcc> live = new LongMap<>(1024);
    private final ArrayDeque<RequestAcc> ended = new ArrayDeque<>();
    final FinishedRequests finishedRequests;
    private final Map<String, String> strings = new HashMap<>();
    private long flushes;
    // The current contract event's start and end (the stream hands over one event at a time).
    private long eventStart;
    private long eventEnd;
    long requestsSeen;
    // Requests begun and not ended (their hopscope.Request event not read yet), now and at most: an
    // ended request waiting for its flush lag is not in flight, and keeps detail only if it may be shown.
    private int inFlight;
    int peakInFlight;
    long allocInRequests;

    /** {@code joins} is null when there is no second pass. */
    RequestEvents(RecordingFacts facts, JfrEvents jfr, SegmentWindow window, Selection selection, JoinPass joins,
                  DetailBudget budget) {
        this.facts = facts;
        this.jfr = jfr;
        this.window = window;
        this.selection = selection;
        this.joins = joins;
        this.budget = budget;
        this.finishedRequests = new FinishedRequests(selection);
    }

    // One handler per event type, each small: the stream already dispatches on the type, and one method
    // for all five (a switch on the name) was the analyzer's largest JIT compilation (0.7 s of C2).
    // Fields are read by position (EventFields), each once, and fields only the event lists need only
    // for requests that keep them. Field 0 of every layout is requestId (read by requestOf).
    private final EventFields requestFields = new EventFields("requestId", "name", "boundary", "url", "outcome",
            "error", "statusCode", "startThread", "eventThread", "traceId", "spanId");
    private final EventFields segmentFields = new EventFields("requestId", "eventThread", "kind", "allocatedBytes",
            "cpuNanos");
    private final EventFields hopFields = new EventFields("requestId", "kind", "delayNanos", "scheduledNanos",
            "toThread", "fromThread", "eventThread", "via");
    private final EventFields waitFields = new EventFields("requestId", "nonBlockingThread", "kind", "eventThread",
            "wakerThread", "wakeLatencyNanos", "outcome");
    private final EventFields mountsFields = new EventFields("requestId", "mounts", "mountWaitNanos",
            "maxMountWaitNanos", "mountedNanos", "carriers", "eventThread", "allocatedBytes");
    private final EventFields agentWorkFields = new EventFields("requestId", "eventThread", "classes",
            "transformedClasses", "nanos", "cpuNanos", "allocatedBytes");
    private final EventFields spanFields = new EventFields("requestId", "spanId", "parentSpanId", "kind", "name", "mode",
            "depth", "eventThread");

    void onRequest(RecordedEvent e) {
        EventFields f = requestFields;
        RequestAcc r = requestOf(e, f);
        if (r == null || r.ended) {
            if (r != null && r.finished) {
                settleIfLate(r);
            }
            return; // outside any request, left out, or a duplicate (the first one stands)
        }
        r.ended = true;
        inFlight--;
        r.endedAtFlush = flushes;
        ended.add(r);
        r.name = intern(f.string(e, 1));
        r.boundary = intern(f.string(e, 2));
        r.url = f.string(e, 3);
        r.outcome = intern(f.string(e, 4));
        r.error = intern(f.string(e, 5));
        r.statusCode = f.intValue(e, 6, -1);
        r.startThread = jfr.threadValue(f.value(e, 7));
        r.endThread = jfr.threadValue(f.value(e, 8));
        String traceId = f.string(e, 9);
        if (TraceIds.isTraceId(traceId)) {
            r.traceId = traceId;
            String spanId = f.string(e, 10);
            r.spanId = TraceIds.isSpanId(spanId) ? spanId : null;
        }
        r.startEpochNanos = eventStart;
        r.durationNanos = eventEnd - eventStart;
        if (r.detail && selection.cannotBeShown(r)) {
            r.dropDetail();
        }
    }

    void onSegment(RecordedEvent e) {
        EventFields f = segmentFields;
        RequestAcc r = requestOf(e, f);
        if (r == null) {
            return;
        }
        ThreadRef thread = jfr.threadValue(f.value(e, 1));
        if (thread == null) {
            thread = ThreadRef.UNKNOWN;
        }
        boolean detail = r.detail;
        r.addSegment(new Segment(thread, detail ? intern(f.string(e, 2)) : null, eventStart, eventEnd,
                f.longValue(e, 3, 0), detail ? f.longValue(e, 4, -1) : -1));
        if (!r.finished) { // a late segment's JDK events were joined already (see FinishedRequests)
            window.add(thread.javaId(), eventStart, eventEnd, r);
        }
        if (joins != null && r.joinSlot >= 0) {
            joins.addSegment(thread.javaId(), eventStart, eventEnd, r);
        }
        settleIfLate(r);
    }

    void onHop(RecordedEvent e) {
        EventFields f = hopFields;
        RequestAcc r = requestOf(e, f);
        if (r == null) {
            return;
        }
        String kind = intern(f.string(e, 1));
        long delay = f.longValue(e, 2, 0);
        long scheduled = f.longValue(e, 3, 0);
        boolean wake = "wake".equals(kind);
        ThreadRef to = null;
        if (r.detail || wake) {
            to = jfr.threadValue(f.value(e, 4));
            to = to != null ? to : jfr.threadValue(f.value(e, 6));
        }
        if (r.detail) {
            ThreadRef from = jfr.threadValue(f.value(e, 5));
            r.addHop(new Hop(kind, from != null ? from : ThreadRef.UNKNOWN, to != null ? to : ThreadRef.UNKNOWN, eventStart,
                    delay, intern(f.string(e, 7)),
                    scheduled));
        } else {
            r.addHop(new Hop(kind, ThreadRef.UNKNOWN, ThreadRef.UNKNOWN, eventStart, delay, null, scheduled));
        }
        if (wake && to != null && !r.finished) {
            // The woken thread was parked until here: that explains its park (BlindSpots).
            r.blind().addWake(to.javaId(), eventStart - Math.max(0, delay), eventStart);
        }
        settleIfLate(r);
    }

    void onWait(RecordedEvent e) {
        EventFields f = waitFields;
        RequestAcc r = requestOf(e, f);
        if (r == null) {
            return;
        }
        boolean nonBlocking = f.booleanValue(e, 1);
        ThreadRef waiter = jfr.threadValue(f.value(e, 3));
        if (r.detail) {
            r.addWait(new Wait(intern(f.string(e, 2)), waiter,
                    jfr.threadValue(f.value(e, 4)), eventStart, eventEnd, f.longValue(e, 5, -1),
                    nonBlocking, intern(f.string(e, 6))));
        } else {
            r.addWait(new Wait(null, null, null, eventStart, eventEnd, -1, nonBlocking, null));
        }
        if (waiter != null && !r.finished) {
            r.blind().addWait(waiter.javaId(), eventStart, eventEnd); // explains a park inside it (BlindSpots)
        }
        settleIfLate(r);
    }

    void onMounts(RecordedEvent e) {
        EventFields f = mountsFields;
        RequestAcc r = requestOf(e, f);
        if (r == null) {
            return;
        }
        r.addMounts(f.intValue(e, 1, 0), f.longValue(e, 2, 0), f.longValue(e, 3, 0), f.longValue(e, 4, 0),
                r.detail ? f.string(e, 5) : null);
        ThreadRef thread = jfr.threadValue(f.value(e, 6));
        long allocated = f.longValue(e, 7, -1);
        if (thread != null && allocated >= 0) {
            r.addExactVirtualAllocation(thread.javaId(), allocated);
        }
        settleIfLate(r);
    }

    void onAgentWork(RecordedEvent e) {
        EventFields f = agentWorkFields;
        RequestAcc r = requestOf(e, f);
        if (r == null) {
            return;
        }
        r.addAgentWork(jfr.threadValue(f.value(e, 1)), f.intValue(e, 2, 0), f.intValue(e, 3, 0),
                f.longValue(e, 4, 0), f.longValue(e, 5, -1), f.longValue(e, 6, -1));
        settleIfLate(r);
    }

    void onSpan(RecordedEvent e) {
        EventFields f = spanFields;
        RequestAcc r = requestOf(e, f);
        if (r == null) {
            return;
        }
        boolean detail = r.detail;
        r.addSpan(new Span(f.longValue(e, 1, 0), f.longValue(e, 2, 0), intern(f.string(e, 3)), intern(f.string(e, 4)),
                detail ? intern(f.string(e, 5)) : null, detail ? f.intValue(e, 6, 0) : 0,
                detail ? jfr.threadValue(f.value(e, 7)) : null, eventStart, eventEnd));
        settleIfLate(r);
    }

    /**
     * The request a contract event belongs to (its requestId is field 0 of {@code f}), created at its
     * first event; for an event that came after its request was finished, the one
     * {@link FinishedRequests#target} gives, settled by the handler once it added the event
     * ({@link #settleIfLate}); null for an event outside any request or one that cannot be added
     * (counted). Leaves the event's times in {@link #eventStart} and {@link #eventEnd}.
     */
    private RequestAcc requestOf(RecordedEvent e, EventFields f) {
        long start = JfrEvents.startNanos(e);
        long end = JfrEvents.endNanos(e);
        facts.hopscopeEvent(start, end);
        eventStart = start;
        eventEnd = end;
        long id = f.longValue(e, 0, 0);
        if (id == 0) {
            return null; // outside any request (e.g. a non-blocking wait with no request)
        }
        RequestAcc r = live.get(id);
        if (r == null) {
            if (finishedRequests.isFinished(id)) {
                return finishedRequests.target(id);
            }
            r = newRequest(id);
        }
        r.firstSeenNanos = Math.min(r.firstSeenNanos, start);
        return r;
    }

    // Last in each handler: a late event's figures go on to its name's summary.
    private void settleIfLate(RequestAcc r) {
        if (r.finished) {
            allocInRequests += finishedRequests.settle(r);
        }
    }

    private RequestAcc newRequest(long id) {
        RequestAcc r = new RequestAcc(id, selection.showsAny() ? budget : null);
        live.put(id, r);
        requestsSeen++;
        inFlight++;
        peakInFlight = Math.max(peakInFlight, inFlight);
        if (joins != null) {
            joins.slot(r);
        }
        return r;
    }

    // Names, kinds and outcomes repeat across millions of events; keep one copy of each (bounded,
    // since URLs with ids in them need not repeat).
    private String intern(String s) {
        if (s == null) {
            return null;
        }
        String known = strings.get(s);
        if (known != null) {
            return known;
        }
        if (strings.size() < 100_000) {
            strings.put(s, s);
        }
        return s;
    }

    void onFlush(long flush) {
        flushes = flush;
    }

    /** The next ended request whose hopscope.Request event came at or before flush {@code upTo}, or null. */
    RequestAcc nextEnded(long upTo) {
        return !ended.isEmpty() && ended.peek().endedAtFlush <= upTo ? ended.poll() : null;
    }

    /** Ended requests waiting for their flush lag. */
    int endedWaiting() {
        return ended.size();
    }

    /** Takes a finished request out of the requests in flight. */
    void finished(RequestAcc r) {
        r.finished = true;
        live.remove(r.id);
        r.settleVirtualAllocation();
        r.settleBlindSpots();
        finishedRequests.finished(r);
        allocInRequests += r.allocatedBytes - r.estimatedAllocatedBytes; // the exact part: what the header says
    }

    /** The earliest event time of any request still in flight: GC pauses after it must be kept. */
    long earliestInFlight() {
        long[] earliest = {Long.MAX_VALUE};
        live.forEachValue(r -> earliest[0] = Math.min(earliest[0],
                Math.min(r.firstSeenNanos, r.ended ? r.startEpochNanos : Long.MAX_VALUE)));
        return earliest[0];
    }

    /** Requests in flight when the recording ended (no hopscope.Request event), then forgets them. */
    long dropUnfinished() {
        long n = live.size();
        live.clear();
        return n;
    }
}
