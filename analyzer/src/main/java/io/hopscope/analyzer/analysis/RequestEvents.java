package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.memory.DetailBudget;
import io.hopscope.analyzer.analysis.memory.IdRingMap;
import io.hopscope.analyzer.analysis.threads.SegmentWindow;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.RequestKinds;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.TraceIds;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.read.HopscopeEvents.AgentWorkEvent;
import io.hopscope.analyzer.read.HopscopeEvents.HopEvent;
import io.hopscope.analyzer.read.HopscopeEvents.MountsEvent;
import io.hopscope.analyzer.read.HopscopeEvents.RequestEvent;
import io.hopscope.analyzer.read.HopscopeEvents.SegmentEvent;
import io.hopscope.analyzer.read.HopscopeEvents.SpanEvent;
import io.hopscope.analyzer.read.HopscopeEvents.WaitEvent;
import io.hopscope.analyzer.read.HopscopeEvents;
import io.hopscope.analyzer.read.JfrEvents;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The agent's per-request events into the requests in flight: each request is made at its first
 * event, ended by its hopscope.Request event, and handed back by {@link #nextEnded} for the driver to
 * finish. An event of a request already finished goes to {@link FinishedRequests}, however late.
 */
final class RequestEvents {

    private final RecordingFacts facts;
    private final JfrEvents jfr;
    private final SegmentWindow<RequestInProgress> window;
    private final Selection selection;
    private final DetailBudget budget;
    // Request ids rise in sequence (README): the requests in flight are a window of them (IdRingMap).
    private final IdRingMap<RequestInProgress> live = new IdRingMap<>(1024);
    private final ArrayDeque<RequestInProgress> ended = new ArrayDeque<>();
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
    // The earliest first event of the requests in the live map, kept as events come (a request's first
    // event only moves earlier); stale once a request at that minimum leaves, and then found again by one
    // walk. A walk over the whole table at every flush point was most of earliestInFlight's cost.
    private long earliestLive = Long.MAX_VALUE;
    private boolean earliestStale;
    long allocInRequests;
    // Whether waits and wake hops are kept to explain the requests' parks (BlindSpots): a report's, not a
    // watch's, whose requests go to profiles, which do not show them.
    boolean explainsBlindSpots = true;

    RequestEvents(RecordingFacts facts, JfrEvents jfr, SegmentWindow<RequestInProgress> window, Selection selection,
                  DetailBudget budget) {
        this.facts = facts;
        this.jfr = jfr;
        this.window = window;
        this.selection = selection;
        this.budget = budget;
        this.finishedRequests = new FinishedRequests(selection);
        // The values the analysis compares with literals: interned to the literal itself, so that each
        // equals (a kind for every request's summary, every hop's kind) is one identity check, not a
        // compare of the characters.
        for (String literal : new String[] {RequestKinds.SERVER, RequestKinds.CLIENT, RequestKinds.INTERNAL, "ok",
                "wake", "return"}) {
            strings.put(literal, literal);
        }
    }

    // One handler per event type, each small: the stream already dispatches on the type, and one method
    // for all five (a switch on the name) was the analyzer's largest JIT compilation (0.7 s of C2).
    // Each field is read once (by position, HopscopeEvents), and fields only the event lists need only
    // for requests that keep them.

    void onRequest(RequestEvent e) {
        RequestInProgress r = requestOf(e, e.requestId());
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
        r.name = intern(e.name());
        r.kind = intern(e.kind());
        r.boundary = intern(e.boundary());
        r.url = e.url();
        r.outcome = intern(e.outcome());
        r.error = intern(e.error());
        r.statusCode = e.statusCode();
        r.startThread = jfr.thread(e.startThread());
        r.endThread = jfr.thread(e.eventThread());
        String traceId = e.traceId();
        if (TraceIds.isTraceId(traceId)) {
            r.traceId = traceId;
            String spanId = e.spanId();
            r.spanId = TraceIds.isSpanId(spanId) ? spanId : null;
        }
        r.startEpochNanos = eventStart;
        r.durationNanos = eventEnd - eventStart;
        if (r.detail && selection.cannotBeShown(r)) {
            r.dropDetail();
        }
    }

    void onSegment(SegmentEvent e) {
        RequestInProgress r = requestOf(e, e.requestId());
        if (r == null) {
            return;
        }
        ThreadRef thread = jfr.thread(e.eventThread());
        if (thread == null) {
            thread = ThreadRef.UNKNOWN;
        }
        boolean detail = r.detail;
        r.addSegment(new Segment(thread, detail ? intern(e.kind()) : null, eventStart, eventEnd,
                e.allocatedBytes(), detail ? e.cpuNanos() : -1));
        if (!r.finished) { // a late segment's JDK events were joined already (see FinishedRequests)
            window.add(thread.javaId(), eventStart, eventEnd, r);
        }
        settleIfLate(r);
    }

    void onHop(HopEvent e) {
        RequestInProgress r = requestOf(e, e.requestId());
        if (r == null) {
            return;
        }
        String kind = intern(e.kind());
        long delay = e.delayNanos();
        long scheduled = e.scheduledNanos();
        boolean serverQueue = e.serverQueue();
        boolean wake = "wake".equals(kind);
        ThreadRef to = null;
        if (r.detail || wake) {
            to = jfr.thread(e.toThread());
            to = to != null ? to : jfr.thread(e.eventThread());
        }
        if (r.detail) {
            ThreadRef from = jfr.thread(e.fromThread());
            r.addHop(new Hop(kind, from != null ? from : ThreadRef.UNKNOWN, to != null ? to : ThreadRef.UNKNOWN, eventStart,
                    delay, intern(e.via()), scheduled, serverQueue));
        } else {
            r.addHop(new Hop(kind, ThreadRef.UNKNOWN, ThreadRef.UNKNOWN, eventStart, delay, null, scheduled, serverQueue));
        }
        if (wake && to != null && !r.finished && explainsBlindSpots) {
            // The woken thread was parked until here: that explains its park (BlindSpots).
            r.blind().addWake(to.javaId(), eventStart - Math.max(0, delay), eventStart);
        }
        settleIfLate(r);
    }

    void onWait(WaitEvent e) {
        RequestInProgress r = requestOf(e, e.requestId());
        if (r == null) {
            return;
        }
        boolean nonBlocking = e.nonBlockingThread();
        ThreadRef waiter = jfr.thread(e.eventThread());
        if (r.detail) {
            r.addWait(new Wait(intern(e.kind()), waiter, jfr.thread(e.wakerThread()), eventStart, eventEnd,
                    e.wakeLatencyNanos(), nonBlocking, intern(e.outcome())));
        } else {
            r.addWait(new Wait(null, null, null, eventStart, eventEnd, -1, nonBlocking, null));
        }
        if (waiter != null && !r.finished && explainsBlindSpots) {
            r.blind().addWait(waiter.javaId(), eventStart, eventEnd); // explains a park inside it (BlindSpots)
        }
        settleIfLate(r);
    }

    void onMounts(MountsEvent e) {
        RequestInProgress r = requestOf(e, e.requestId());
        if (r == null) {
            return;
        }
        r.addMounts(e.mounts(), e.mountWaitNanos(), e.maxMountWaitNanos(), e.mountedNanos(),
                r.detail ? e.carriers() : null);
        ThreadRef thread = jfr.thread(e.eventThread());
        long allocated = e.allocatedBytes();
        if (thread != null && allocated >= 0) {
            r.addExactVirtualAllocation(thread.javaId(), allocated);
        }
        settleIfLate(r);
    }

    void onAgentWork(AgentWorkEvent e) {
        RequestInProgress r = requestOf(e, e.requestId());
        if (r == null) {
            return;
        }
        r.addAgentWork(jfr.thread(e.eventThread()), e.classes(), e.transformedClasses(), e.nanos(), e.cpuNanos(),
                e.allocatedBytes());
        settleIfLate(r);
    }

    void onSpan(SpanEvent e) {
        RequestInProgress r = requestOf(e, e.requestId());
        if (r == null) {
            return;
        }
        boolean detail = r.detail;
        r.addSpan(new Span(e.spanId(), e.parentSpanId(), intern(e.kind()), intern(e.name()),
                detail ? intern(e.mode()) : null, detail ? e.depth() : 0,
                detail ? jfr.thread(e.eventThread()) : null, eventStart, eventEnd));
        settleIfLate(r);
    }

    /**
     * The request of a contract event whose requestId is {@code id}, created at its first event; for an
     * event that came after its request was finished, the one {@link FinishedRequests#target} gives,
     * settled by the handler once it added the event ({@link #settleIfLate}); null for an event outside
     * any request or one that cannot be added (counted). Leaves the event's times in {@link #eventStart}
     * and {@link #eventEnd}.
     */
    private RequestInProgress requestOf(HopscopeEvents.View e, long id) {
        long start = e.startNanos();
        long end = e.endNanos();
        facts.hopscopeEvent(start, end);
        eventStart = start;
        eventEnd = end;
        if (id == 0) {
            return null; // outside any request (e.g. a non-blocking wait with no request)
        }
        RequestInProgress r = live.get(id);
        if (r == null) {
            if (finishedRequests.isFinished(id)) {
                return finishedRequests.target(id);
            }
            r = newRequest(id);
        }
        r.firstSeenNanos = Math.min(r.firstSeenNanos, start);
        earliestLive = Math.min(earliestLive, start);
        return r;
    }

    // Last in each handler: a late event's figures go on to its name's summary.
    private void settleIfLate(RequestInProgress r) {
        if (r.finished) {
            allocInRequests += finishedRequests.settle(r);
        }
    }

    private RequestInProgress newRequest(long id) {
        RequestInProgress r = new RequestInProgress(id, selection.showsAny() ? budget : null);
        live.put(id, r);
        requestsSeen++;
        inFlight++;
        peakInFlight = Math.max(peakInFlight, inFlight);
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
    RequestInProgress nextEnded(long upTo) {
        return !ended.isEmpty() && ended.peek().endedAtFlush <= upTo ? ended.poll() : null;
    }

    /** Ended requests waiting for their flush lag. */
    int endedWaiting() {
        return ended.size();
    }

    /** Takes a finished request out of the requests in flight. */
    void finished(RequestInProgress r) {
        r.finished = true;
        live.remove(r.id);
        earliestStale |= r.firstSeenNanos <= earliestLive;
        r.settleVirtualAllocation();
        r.settleBlindSpots();
        finishedRequests.finished(r);
        allocInRequests += r.allocatedBytes - r.estimatedAllocatedBytes; // the exact part: what the header says
    }

    /** The earliest event time of any request still in flight: GC pauses after it must be kept. */
    long earliestInFlight() {
        // An ended request's start is one of its events' (its hopscope.Request event's), so its first
        // event is at or before it: the earliest first event is the answer.
        if (earliestStale) {
            long[] earliest = {Long.MAX_VALUE};
            live.forEachValue(r -> earliest[0] = Math.min(earliest[0], r.firstSeenNanos));
            earliestLive = earliest[0];
            earliestStale = false;
        }
        return earliestLive;
    }

    /** Requests in flight when the recording ended (no hopscope.Request event), then forgets them. */
    long dropUnfinished() {
        long n = live.size();
        live.clear();
        earliestLive = Long.MAX_VALUE;
        earliestStale = false;
        return n;
    }
}
