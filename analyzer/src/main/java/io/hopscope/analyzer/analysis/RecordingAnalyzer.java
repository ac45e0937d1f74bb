package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.read.ChunkScan;
import io.hopscope.analyzer.read.ClockAlignment;
import io.hopscope.analyzer.read.HopscopeContract;
import io.hopscope.analyzer.read.JfrEvents;
import io.hopscope.analyzer.read.RecordingProblem;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * Joins one recording into a {@link Report} in a single streaming pass, with memory bounded by the
 * requests in flight rather than by the file.
 *
 * <p>The file is not in time order across threads (each thread's buffer is written when it fills, or
 * at a flush point), and a JDK event inside a segment always comes before that segment (it is
 * committed earlier, on the same thread). So JDK events to join (lock contention, allocation samples)
 * wait in a pending list, and are joined at each flush point against a {@link SegmentWindow} of the
 * segments of the requests in flight. A request is finished two flush points after its
 * hopscope.Request event (by then its events committed on other threads just after its end have been
 * read too; a straggler later than that is counted, warned about, and left out): GC pauses that overlap it are added,
 * and it goes to the summary (an HdrHistogram per name) and to the selection (a bounded top-N, or
 * every request for {@code top < 0}), then out of the window.
 *
 * <p>Extra joins ({@link #join}) receive the event while it is current, so they run in a second pass
 * over just their event types, against a full index of segments (24 bytes a segment) kept only then.
 */
public final class RecordingAnalyzer {

    private static final List<String> AGENT_EVENTS = List.of(HopscopeContract.REQUEST, HopscopeContract.SEGMENT,
            HopscopeContract.HOP, HopscopeContract.SPAN, HopscopeContract.WAIT, HopscopeContract.CLOCK_SYNC,
            HopscopeContract.AGENT_INFO, HopscopeContract.AGENT_ERROR, HopscopeContract.NON_BLOCKING_WAIT);
    private static final List<String> JDK_EVENTS = List.of("jdk.JavaMonitorEnter", "jdk.ThreadPark",
            "jdk.ObjectAllocationSample", "jdk.GCPhasePause", "jdk.GarbageCollection", "jdk.JavaThreadStatistics",
            "jdk.CPULoad", "jdk.ThreadStart", "jdk.ThreadEnd");
    // A request is finished two flush points after its hopscope.Request event: an event of it can be
    // committed just after that event on another thread (a pipeline policy's span ending on the event
    // loop after the caller returned) and so land after the next flush point; one flush point of lag
    // lost 6 such spans in a 10,705-request recording of the Netty sample. Later ones are counted and
    // warned about. A JDK event waits longer for its segment, which a long segment may commit later.
    private static final int FINISH_LAG = 2;
    private static final int PENDING_LAG = 4;
    private static final int MAX_GC_PAUSES_KEPT = 100_000;

    /** A JDK event waiting for the segment it falls in (which the file gives later). */
    private record PendingJdk(int kind, long javaThreadId, long startNanos, long endNanos, long weightBytes,
                              RecordedClass type, RecordedStackTrace stack, long flush) {
    }

    private static final int MONITOR = 0;
    private static final int PARK = 1;
    private static final int ALLOCATION = 2;

    private final Path file;
    private final AnalysisOptions options;
    private final JfrEvents jfr = new JfrEvents();
    private final LongMap<RequestAcc> live = new LongMap<>(1024);
    private final ArrayDeque<RequestAcc> ended = new ArrayDeque<>();
    private final SegmentWindow window = new SegmentWindow();
    private List<PendingJdk> pending = new ArrayList<>();
    private final ClockAlignment clock = new ClockAlignment();
    private final Map<String, Long> agentErrors = new TreeMap<>();
    private final List<GcPause> phasePauses = new ArrayList<>();
    private final List<GcPause> collections = new ArrayList<>();
    private boolean pausesUnsorted;
    private final List<String> warnings = new ArrayList<>();
    private final Map<String, String> strings = new HashMap<>();
    private final Map<String, SegmentJoin> extraJoins = new LinkedHashMap<>();
    private final NameGlob glob;
    private final Map<String, SummaryBuilder> summaries = new LinkedHashMap<>();
    private final Comparator<RequestAcc> order;
    private final PriorityQueue<RequestAcc> worst;
    private final List<RequestAcc> all;
    // Past this many requests for --top all, they go to a temporary file instead of the heap.
    private static final int SPILL_AFTER_REQUESTS = 20_000;
    private RequestSpill spill;
    // Only for extra joins: every segment, and each request's id and name by slot.
    private SegmentIndex fullIndex;
    private long[] joinIds;
    private String[] joinNames;
    private int joinSlots;
    private long flushes;
    private long requestsSeen;
    private long detailDropped;
    // Ids finished in the current and the previous flush interval, to count (not misreport as
    // unfinished requests) an event that comes after its request was finished.
    private LongMap<RequestAcc> finishedNow = new LongMap<>(1024);
    private LongMap<RequestAcc> finishedBefore = new LongMap<>(1024);
    private long lateEvents;
    // The current contract event's start and end (the stream hands over one event at a time).
    private long eventStart;
    private long eventEnd;
    private int peakInFlight;
    private long hopscopeEvents;
    private long passNanos;
    private long joinPassNanos;
    private int scanMajor;
    private int scanMinor;
    private long jdkEvents;
    private long minStart = Long.MAX_VALUE;
    private long maxEnd = Long.MIN_VALUE;
    private String agentVersion;
    private String agentOptions;
    private long gcPauseSumNanos;
    private long phasePauseSumNanos;
    private long gcCount;
    private long peakThreads = -1;
    private long sampledAllocBytes;
    private long sampledAllocBytesInRequests;
    private long allocInRequests;

    public RecordingAnalyzer(Path file, AnalysisOptions options) {
        this.file = file;
        this.options = options;
        this.glob = options.nameGlob() == null ? null : new NameGlob(options.nameGlob());
        this.order = options.sort().order();
        this.worst = options.top() > 0 ? new PriorityQueue<>(order.reversed()) : null;
        this.all = options.top() < 0 ? new ArrayList<>() : null;
    }

    /** Reads the file and builds the report; bad data raises {@link RecordingProblem}. */
    public Report analyze() throws RecordingProblem {
        long t0 = System.nanoTime();
        if (!extraJoins.isEmpty()) {
            fullIndex = new SegmentIndex();
            joinIds = new long[1024];
            joinNames = new String[1024];
        }
        Map<String, Consumer<RecordedEvent>> handlers = new LinkedHashMap<>();
        handlers.put(HopscopeContract.SEGMENT, this::onSegment);
        handlers.put(HopscopeContract.HOP, this::onHop);
        handlers.put(HopscopeContract.SPAN, this::onSpan);
        handlers.put(HopscopeContract.WAIT, this::onWait);
        handlers.put(HopscopeContract.REQUEST, this::onRequest);
        for (String other : AGENT_EVENTS) {
            handlers.putIfAbsent(other, this::onAgentEvent);
        }
        for (String name : JDK_EVENTS) {
            handlers.put(name, this::onJdkEvent);
        }
        ChunkScan.Result scan = jfr.stream(file, handlers, this::onFlush);
        scanMajor = scan.major();
        scanMinor = scan.minor();
        if (scan.unfinished()) {
            warnings.add(file + ": unfinished recording (its jvm was killed, or is still recording): "
                    + "read what was flushed to the file, later events are lost");
        } else if (scan.truncated()) {
            warnings.add(file + ": truncated recording: read the " + scan.completeChunks() + " complete chunk(s), "
                    + scan.readableBytes() + " of " + scan.fileBytes() + " bytes; the rest is lost");
        }
        joinPending(true);
        while (!ended.isEmpty()) {
            finish(ended.poll());
        }
        passNanos = System.nanoTime() - t0;
        if (fullIndex != null) {
            fullIndex.freeze();
            Map<String, Consumer<RecordedEvent>> joins = new LinkedHashMap<>();
            extraJoins.forEach((name, join) -> joins.put(name, e -> joined(e, join)));
            jfr.stream(file, joins);
            joinPassNanos = System.nanoTime() - t0 - passNanos;
        }
        return build();
    }

    // Every event committed before this point has been read: join what waited, finish what ended long enough ago.
    private void onFlush() {
        flushes++;
        LongMap<RequestAcc> recycled = finishedBefore;
        finishedBefore = finishedNow;
        recycled.clear();
        finishedNow = recycled;
        joinPending(false);
        while (!ended.isEmpty() && ended.peek().endedAtFlush <= flushes - FINISH_LAG) {
            finish(ended.poll());
        }
        window.prune();
        prunePauses();
    }

    private void joinPending(boolean last) {
        if (pending.isEmpty()) {
            return;
        }
        window.sort();
        List<PendingJdk> keep = new ArrayList<>();
        for (PendingJdk p : pending) {
            RequestAcc r = window.find(p.javaThreadId(), p.startNanos(), p.kind() == ALLOCATION ? p.startNanos() : p.endNanos());
            if (r != null && !r.finished) {
                attribute(p, r);
            } else if (!last && p.flush() > flushes - PENDING_LAG) {
                keep.add(p); // its segment may still come
            }
        }
        pending = keep;
    }

    private void attribute(PendingJdk p, RequestAcc r) {
        if (p.kind() == ALLOCATION) {
            sampledAllocBytesInRequests += p.weightBytes();
            r.addAllocationSample(JfrEvents.topFrame(p.stack()), p.type() == null ? "?" : p.type().getName(),
                    p.weightBytes());
            return;
        }
        long overlap = window.overlapNanos(p.javaThreadId(), p.startNanos(), p.endNanos(), r);
        if (overlap <= 0) {
            return;
        }
        r.addLock(p.kind() == MONITOR ? "monitor" : "park", p.type() == null ? "?" : p.type().getName(), overlap,
                p.endNanos() - p.startNanos(), () -> JfrEvents.stack(p.stack(), 6));
    }

    // A request's GC join needs the pauses since the earliest event of any request still in flight.
    private void prunePauses() {
        long[] earliest = {Long.MAX_VALUE};
        live.forEachValue(r -> earliest[0] = Math.min(earliest[0],
                Math.min(r.firstSeenNanos, r.ended ? r.startEpochNanos : Long.MAX_VALUE)));
        long keepFrom = earliest[0];
        for (List<GcPause> list : List.of(phasePauses, collections)) {
            // and a minute back besides, for a request whose first event the file has not given yet.
            long from = Math.min(keepFrom, maxEnd - 60_000_000_000L);
            list.removeIf(p -> p.endEpochNanos() < from);
            if (list.size() > MAX_GC_PAUSES_KEPT) {
                sortPauses();
                list.subList(0, list.size() - MAX_GC_PAUSES_KEPT).clear();
            }
        }
    }

    private void sortPauses() {
        if (pausesUnsorted) {
            phasePauses.sort(Comparator.comparingLong(GcPause::startEpochNanos));
            collections.sort(Comparator.comparingLong(GcPause::startEpochNanos));
            pausesUnsorted = false;
        }
    }

    /** The request is complete: GC pauses, then into the summary and the selection, then out of memory. */
    private void finish(RequestAcc r) {
        r.finished = true;
        live.remove(r.id);
        finishedNow.put(r.id, r);
        joinGcPauses(r);
        allocInRequests += r.allocatedBytes;
        if (r.joinSlot >= 0) {
            joinIds[r.joinSlot] = r.id;
            joinNames[r.joinSlot] = r.name;
        }
        String name = r.name == null ? "?" : r.name;
        if (glob != null && !glob.matches(name)) {
            return;
        }
        summaries.computeIfAbsent(name, SummaryBuilder::new).add(r);
        if (worst != null) {
            worst.add(r);
            if (worst.size() > options.top()) {
                worst.poll();
            }
        } else if (all != null) {
            if (spill == null && all.size() >= SPILL_AFTER_REQUESTS) {
                spill = new RequestSpill();
                all.forEach(this::spill);
                all.clear();
            }
            if (spill != null) {
                spill(r);
            } else {
                all.add(r);
            }
        }
    }

    private void spill(RequestAcc r) {
        spill.add(options.sort().key(r), r.toRequest(options.topSites()));
    }

    private void onAgentEvent(RecordedEvent e) {
        hopscopeEvents++;
        String type = e.getEventType().getName();
        long start = JfrEvents.startNanos(e);
        long end = JfrEvents.endNanos(e);
        seen(start, end);
        switch (type) {
            case HopscopeContract.CLOCK_SYNC -> clock.add(start, JfrEvents.longField(e, "monotonicNanos", 0));
            case HopscopeContract.AGENT_INFO -> {
                agentVersion = JfrEvents.string(e, "version");
                agentOptions = JfrEvents.string(e, "options");
            }
            case HopscopeContract.AGENT_ERROR -> agentErrors.merge(
                    JfrEvents.string(e, "instrumentation") + ": " + JfrEvents.string(e, "message"),
                    Math.max(1, JfrEvents.longField(e, "count", 1)), Math::max);
            case HopscopeContract.NON_BLOCKING_WAIT -> {
                // Carried by hopscope.Wait's nonBlockingThread too; this one only adds a stack.
            }
            default -> {
            }
        }
    }

    // One handler per event type, each small: the stream already dispatches on the type, and one method
    // for all five (a switch on the name) was the analyzer's largest JIT compilation (0.7 s of C2).
    // Each field read is a walk over the type's fields by name in jdk.jfr.consumer (no read by index),
    // so every field is read once, and fields only the event lists need only for requests that keep them.

    private void onRequest(RecordedEvent e) {
        RequestAcc r = requestOf(e);
        if (r == null || r.ended) {
            return; // outside any request, late, or a duplicate (the first one stands)
        }
        r.ended = true;
        r.endedAtFlush = flushes;
        ended.add(r);
        r.name = intern(JfrEvents.string(e, "name"));
        r.boundary = intern(JfrEvents.string(e, "boundary"));
        r.url = JfrEvents.string(e, "url");
        r.outcome = intern(JfrEvents.string(e, "outcome"));
        r.error = intern(JfrEvents.string(e, "error"));
        r.statusCode = JfrEvents.intField(e, "statusCode", -1);
        r.startThread = jfr.threadField(e, "startThread");
        r.endThread = jfr.eventThread(e);
        r.startEpochNanos = eventStart;
        r.durationNanos = eventEnd - eventStart;
        if (r.detail && cannotBeShown(r)) {
            r.dropDetail();
        }
    }

    // A request already known never to be shown drops its event lists at its end, while they are still
    // young garbage: kept until it is finished, two flush points later, every request's lists were
    // promoted to the old generation, and collecting them was a fifth of the CPU time on big files.
    // Only for sort keys that are final at the request's end (duration, start): from then on, the
    // N-th worst request finished so far can only get worse.
    private boolean cannotBeShown(RequestAcc r) {
        if (glob != null && !glob.matches(r.name == null ? "?" : r.name)) {
            return true;
        }
        if (worst == null) {
            return all == null; // --top 0: none is shown
        }
        return options.sort().finalAtEnd() && worst.size() >= options.top()
                && order.compare(r, worst.peek()) > 0;
    }

    private void onSegment(RecordedEvent e) {
        RequestAcc r = requestOf(e);
        if (r == null) {
            return;
        }
        ThreadRef thread = jfr.eventThread(e);
        if (thread == null) {
            thread = ThreadRef.UNKNOWN;
        }
        boolean detail = r.detail;
        r.addSegment(new Segment(thread, detail ? intern(JfrEvents.string(e, "kind")) : null, eventStart, eventEnd,
                JfrEvents.longField(e, "allocatedBytes", 0), detail ? JfrEvents.longField(e, "cpuNanos", -1) : -1));
        window.add(thread.javaId(), eventStart, eventEnd, r);
        if (fullIndex != null) {
            fullIndex.add(thread.javaId(), eventStart, eventEnd, r.joinSlot);
        }
    }

    private void onHop(RecordedEvent e) {
        RequestAcc r = requestOf(e);
        if (r == null) {
            return;
        }
        String kind = intern(JfrEvents.string(e, "kind"));
        long delay = JfrEvents.longField(e, "delayNanos", 0);
        if (r.detail) {
            ThreadRef to = jfr.threadField(e, "toThread");
            ThreadRef from = jfr.threadField(e, "fromThread");
            r.addHop(new Hop(kind, from != null ? from : ThreadRef.UNKNOWN,
                    to != null ? to : jfr.eventThread(e), eventStart, delay, intern(JfrEvents.string(e, "via"))));
        } else {
            r.addHop(new Hop(kind, ThreadRef.UNKNOWN, ThreadRef.UNKNOWN, eventStart, delay, null));
        }
    }

    private void onWait(RecordedEvent e) {
        RequestAcc r = requestOf(e);
        if (r == null) {
            return;
        }
        boolean nonBlocking = JfrEvents.booleanField(e, "nonBlockingThread");
        if (r.detail) {
            r.addWait(new Wait(intern(JfrEvents.string(e, "kind")), jfr.eventThread(e),
                    jfr.threadField(e, "wakerThread"), eventStart, eventEnd, JfrEvents.longField(e, "wakeLatencyNanos", -1),
                    nonBlocking, intern(JfrEvents.string(e, "outcome"))));
        } else {
            r.addWait(new Wait(null, null, null, eventStart, eventEnd, -1, nonBlocking, null));
        }
    }

    private void onSpan(RecordedEvent e) {
        RequestAcc r = requestOf(e);
        if (r == null) {
            return;
        }
        boolean detail = r.detail;
        r.addSpan(new Span(JfrEvents.longField(e, "spanId", 0), JfrEvents.longField(e, "parentSpanId", 0),
                intern(JfrEvents.string(e, "kind")), intern(JfrEvents.string(e, "name")),
                detail ? intern(JfrEvents.string(e, "mode")) : null, detail ? JfrEvents.intField(e, "depth", 0) : 0,
                detail ? jfr.eventThread(e) : null, eventStart, eventEnd));
    }

    /**
     * The request a contract event belongs to, created at its first event; null for an event outside
     * any request or one that came after its request was finished (counted). Leaves the event's times
     * in {@link #eventStart} and {@link #eventEnd}.
     */
    private RequestAcc requestOf(RecordedEvent e) {
        hopscopeEvents++;
        long start = JfrEvents.startNanos(e);
        long end = JfrEvents.endNanos(e);
        seen(start, end);
        eventStart = start;
        eventEnd = end;
        long id = JfrEvents.longField(e, "requestId", 0);
        if (id == 0) {
            return null; // outside any request (e.g. a non-blocking wait with no request)
        }
        RequestAcc r = live.get(id);
        if (r == null) {
            if (finishedNow.containsKey(id) || finishedBefore.containsKey(id)) {
                lateEvents++;
                return null;
            }
            r = newRequest(id);
        }
        r.firstSeenNanos = Math.min(r.firstSeenNanos, start);
        return r;
    }

    private RequestAcc newRequest(long id) {
        boolean withinLimit = live.size() < options.detailLimit();
        if (!withinLimit) {
            detailDropped++;
        }
        // --top 0 shows no request: no event lists at all.
        RequestAcc r = new RequestAcc(id, withinLimit && (worst != null || all != null));
        live.put(id, r);
        requestsSeen++;
        peakInFlight = Math.max(peakInFlight, live.size());
        if (fullIndex != null) {
            if (joinSlots == joinIds.length) {
                joinIds = java.util.Arrays.copyOf(joinIds, joinSlots * 2);
                joinNames = java.util.Arrays.copyOf(joinNames, joinSlots * 2);
            }
            r.joinSlot = joinSlots++;
        }
        return r;
    }

    private void onJdkEvent(RecordedEvent e) {
        jdkEvents++;
        String type = e.getEventType().getName();
        long start = JfrEvents.startNanos(e);
        long end = JfrEvents.endNanos(e);
        seen(start, end);
        switch (type) {
            case "jdk.JavaMonitorEnter" -> lock(e, MONITOR, "monitorClass", start, end);
            case "jdk.ThreadPark" -> lock(e, PARK, "parkedClass", start, end);
            case "jdk.ObjectAllocationSample" -> {
                long weight = JfrEvents.longField(e, "weight", 0);
                sampledAllocBytes += weight;
                RecordedThread t = e.getThread();
                if (t != null) {
                    // Stack and class are constant-pool objects, not part of the reused event: safe to keep.
                    pending.add(new PendingJdk(ALLOCATION, t.getJavaThreadId(), start, start, weight,
                            e.hasField("objectClass") ? e.getClass("objectClass") : null, e.getStackTrace(), flushes));
                }
            }
            case "jdk.GCPhasePause" -> {
                addPause(phasePauses, new GcPause(JfrEvents.longField(e, "gcId", -1), JfrEvents.string(e, "name"), start, end));
                phasePauseSumNanos += end - start;
            }
            case "jdk.GarbageCollection" -> {
                gcCount++;
                addPause(collections, new GcPause(JfrEvents.longField(e, "gcId", -1), JfrEvents.string(e, "name"), start, end));
                gcPauseSumNanos += e.hasField("sumOfPauses") ? e.getDuration("sumOfPauses").toNanos() : end - start;
            }
            case "jdk.JavaThreadStatistics" -> peakThreads = Math.max(peakThreads, JfrEvents.longField(e, "peakCount", -1));
            default -> {
            }
        }
    }

    private void addPause(List<GcPause> list, GcPause p) {
        if (!list.isEmpty() && list.get(list.size() - 1).startEpochNanos() > p.startEpochNanos()) {
            pausesUnsorted = true;
        }
        list.add(p);
    }

    private void joined(RecordedEvent e, SegmentJoin join) {
        int slot = -1;
        // Samples (jdk.ExecutionSample, jdk.NativeMethodSample, async-profiler's) name the thread they
        // sampled in sampledThread; their event thread is empty.
        jdk.jfr.consumer.RecordedThread thread = e.getThread() != null ? e.getThread()
                : e.hasField("sampledThread") ? e.getThread("sampledThread") : null;
        if (thread != null) {
            long start = JfrEvents.startNanos(e);
            slot = fullIndex.find(thread.getJavaThreadId(), start, start);
        }
        long id = slot >= 0 ? joinIds[slot] : 0;
        join.accept(e, id, id != 0 ? joinNames[slot] : null);
    }

    /**
     * Also streams the events of type {@code eventName} (in a second pass over just the joined types)
     * and hands each to {@code join} with the request it fell in (call before {@link #analyze()}).
     * Several joins for one type run in the order they were added. Costs a full segment index
     * (24 bytes a segment, and a slot per request) on top of the single pass's bounded memory.
     */
    public RecordingAnalyzer join(String eventName, SegmentJoin join) {
        extraJoins.merge(eventName, join, (a, b) -> (e, id, name) -> {
            a.accept(e, id, name);
            b.accept(e, id, name);
        });
        return this;
    }

    private void lock(RecordedEvent e, int kind, String classField, long start, long end) {
        RecordedThread t = e.getThread();
        if (t == null || end <= start) {
            return;
        }
        pending.add(new PendingJdk(kind, t.getJavaThreadId(), start, end, 0,
                e.hasField(classField) ? e.getClass(classField) : null, e.getStackTrace(), flushes));
    }

    // Pauses do not overlap each other: from the last one starting before the request ends, walk back
    // until one ends before it starts.
    private void joinGcPauses(RequestAcc r) {
        if (!r.ended) {
            return;
        }
        sortPauses();
        List<GcPause> pauses = phasePauses.isEmpty() ? collections : phasePauses;
        int lo = 0;
        int hi = pauses.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (pauses.get(mid).startEpochNanos() <= r.endEpochNanos()) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo - 1; i >= 0; i--) {
            GcPause p = pauses.get(i);
            if (p.endEpochNanos() <= r.startEpochNanos) {
                break;
            }
            long overlap = Math.min(p.endEpochNanos(), r.endEpochNanos()) - Math.max(p.startEpochNanos(), r.startEpochNanos);
            if (overlap > 0) {
                r.addGcPause(p, overlap);
            }
        }
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

    private void seen(long start, long end) {
        minStart = Math.min(minStart, start);
        maxEnd = Math.max(maxEnd, end);
    }

    private Report build() {
        long incomplete = live.size(); // in flight when the recording ended: no hopscope.Request event
        if (hopscopeEvents == 0) {
            warnings.add(file + ": no hopscope events (not recorded under the hopscope agent); "
                    + "only what the jdk events allow is reported");
            if (jdkEvents == 0) {
                warnings.add(file + ": none of the jdk events the analyzer reads either (gc, threads, allocation "
                        + "samples, locks; format " + scanMajor + "." + scanMinor + " recordings of jdk 9 name them "
                        + "com.oracle.jdk.*), so the report is empty");
            }
        }
        if (incomplete > 0) {
            warnings.add(file + ": " + incomplete + " request(s) without a hopscope.Request event "
                    + "(still running when the recording ended) are left out");
        }
        if (detailDropped > 0) {
            warnings.add(file + ": " + requestsSeen + " requests, up to " + peakInFlight + " in flight at once; event "
                    + "lists (hops, segments, waits, spans) kept for the first " + options.detailLimit()
                    + " only of those in flight at once (--max-detail), totals for all");
        }
        if (lateEvents > 0) {
            warnings.add(file + ": " + lateEvents + " hopscope event(s) came in the file more than a flush interval after "
                    + "their request had ended, and are left out of it");
        }
        agentErrors.forEach((what, count) -> warnings.add(file + ": agent error (" + count + "x) " + what));
        live.clear();

        List<NameSummary> summary = new ArrayList<>();
        summaries.values().forEach(s -> summary.add(s.build()));
        summary.sort(Comparator.comparingLong(NameSummary::count).reversed().thenComparing(NameSummary::name));

        long gcNanos = gcPauseSumNanos > 0 ? gcPauseSumNanos : phasePauseSumNanos;
        RecordingInfo info = new RecordingInfo(file.toString(),
                minStart == Long.MAX_VALUE ? 0 : minStart, maxEnd == Long.MIN_VALUE ? 0 : maxEnd,
                hopscopeEvents > 0, hopscopeEvents, jdkEvents, agentVersion, agentOptions,
                clock.offsetNanos(), clock.count(), gcCount, gcNanos, peakThreads, allocInRequests,
                sampledAllocBytes, sampledAllocBytesInRequests, incomplete, List.copyOf(warnings));
        return new Report(info, List.copyOf(summary), select());
    }

    // Requests are turned into records only when an output reads them (a view over the totals), so
    // that writing every request of a huge recording as JSON holds one record at a time.
    private List<Request> select() {
        if (spill != null) {
            return spill.finish();
        }
        List<RequestAcc> chosen = new ArrayList<>(worst != null ? worst : all != null ? all : List.of());
        chosen.sort(order);
        int topSites = options.topSites();
        return new AbstractList<>() {
            @Override
            public Request get(int index) {
                return chosen.get(index).toRequest(topSites);
            }

            @Override
            public int size() {
                return chosen.size();
            }
        };
    }

    /** Wall time of the pass (and of the extra joins' pass), and what was in flight, for the benchmark's figures. */
    public String passTimes() {
        return String.format(java.util.Locale.ROOT, "one pass %.2f s%s, %d flush points, %d requests, at most %d in flight",
                passNanos / 1e9, fullIndex == null ? "" : String.format(java.util.Locale.ROOT, " + joins pass %.2f s",
                        joinPassNanos / 1e9), flushes, requestsSeen, peakInFlight);
    }

    /** The clock mapping found in the recording (for merging eBPF data). */
    public ClockAlignment clock() {
        return clock;
    }
}
