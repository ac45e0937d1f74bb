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

/**
 * Joins one recording into a {@link Report}, in two streaming passes over the file.
 *
 * <p>Pass 1 reads only the agent's events: per-request totals (and event lists up to the detail
 * limit), and every segment into a {@link SegmentIndex}. Pass 2 reads only the JDK events and
 * attributes each to the request whose segment ran on the same thread at that time (lock contention,
 * allocation samples), or overlaps requests in time (GC pauses). Neither pass keeps raw events, so
 * memory grows with the number of requests (a few hundred bytes each) and segments (24 bytes each),
 * not with the file. Two passes rather than one because the file is not in time order across
 * threads: a JDK event can come before the segment it falls in.
 */
public final class RecordingAnalyzer {

    private static final List<String> PASS1 = List.of(HopscopeContract.REQUEST, HopscopeContract.SEGMENT,
            HopscopeContract.HOP, HopscopeContract.SPAN, HopscopeContract.WAIT, HopscopeContract.CLOCK_SYNC,
            HopscopeContract.AGENT_INFO, HopscopeContract.AGENT_ERROR, HopscopeContract.NON_BLOCKING_WAIT);
    private static final List<String> PASS2 = List.of("jdk.JavaMonitorEnter", "jdk.ThreadPark",
            "jdk.ObjectAllocationSample", "jdk.GCPhasePause", "jdk.GarbageCollection", "jdk.JavaThreadStatistics",
            "jdk.CPULoad", "jdk.ThreadStart", "jdk.ThreadEnd");

    private final Path file;
    private final AnalysisOptions options;
    private final JfrEvents jfr = new JfrEvents();
    private final Map<Long, RequestAcc> byId = new HashMap<>();
    private final List<RequestAcc> bySlot = new ArrayList<>();
    private final SegmentIndex index = new SegmentIndex();
    private final ClockAlignment clock = new ClockAlignment();
    private final Map<String, Long> agentErrors = new TreeMap<>();
    private final List<GcPause> phasePauses = new ArrayList<>();
    private final List<GcPause> collections = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final Map<String, String> strings = new HashMap<>();
    private final Map<String, SegmentJoin> extraJoins = new LinkedHashMap<>();
    private long hopscopeEvents;
    private long pass1Nanos;
    private long pass2Nanos;
    private int scanMajor;
    private int scanMinor;
    private long jdkEvents;
    private long minStart = Long.MAX_VALUE;
    private long maxEnd = Long.MIN_VALUE;
    private String agentVersion;
    private String agentOptions;
    private long gcPauseSumNanos;
    private long peakThreads = -1;
    private long sampledAllocBytes;
    private long sampledAllocBytesInRequests;

    public RecordingAnalyzer(Path file, AnalysisOptions options) {
        this.file = file;
        this.options = options;
    }

    /** Reads the file and builds the report; bad data raises {@link RecordingProblem}. */
    public Report analyze() throws RecordingProblem {
        long t0 = System.nanoTime();
        Map<String, Consumer<RecordedEvent>> pass1 = new LinkedHashMap<>();
        pass1.put(HopscopeContract.SEGMENT, e -> onRequestEvent(HopscopeContract.SEGMENT, e));
        pass1.put(HopscopeContract.HOP, e -> onRequestEvent(HopscopeContract.HOP, e));
        pass1.put(HopscopeContract.SPAN, e -> onRequestEvent(HopscopeContract.SPAN, e));
        pass1.put(HopscopeContract.WAIT, e -> onRequestEvent(HopscopeContract.WAIT, e));
        pass1.put(HopscopeContract.REQUEST, e -> onRequestEvent(HopscopeContract.REQUEST, e));
        for (String other : PASS1) {
            pass1.putIfAbsent(other, this::onAgentEvent);
        }
        ChunkScan.Result scan = jfr.stream(file, pass1);
        scanMajor = scan.major();
        scanMinor = scan.minor();
        if (scan.unfinished()) {
            warnings.add(file + ": unfinished recording (its jvm was killed, or is still recording): "
                    + "read what was flushed to the file, later events are lost");
        } else if (scan.truncated()) {
            warnings.add(file + ": truncated recording: read the " + scan.completeChunks() + " complete chunk(s), "
                    + scan.readableBytes() + " of " + scan.fileBytes() + " bytes; the rest is lost");
        }
        index.freeze();
        pass1Nanos = System.nanoTime() - t0;
        Map<String, Consumer<RecordedEvent>> pass2 = new LinkedHashMap<>();
        for (String name : PASS2) {
            pass2.put(name, this::onJdkEvent);
        }
        extraJoins.forEach((name, join) -> pass2.merge(name, e -> joined(e, join), Consumer::andThen));
        jfr.stream(file, pass2);
        pass2Nanos = System.nanoTime() - t0 - pass1Nanos;
        joinGcPauses();
        return build();
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

    private void onRequestEvent(String type, RecordedEvent e) {
        hopscopeEvents++;
        long start = JfrEvents.startNanos(e);
        long end = JfrEvents.endNanos(e);
        seen(start, end);
        long id = JfrEvents.longField(e, "requestId", 0);
        if (id == 0) {
            return; // outside any request (e.g. a non-blocking wait with no request)
        }
        RequestAcc r = byId.get(id);
        if (r == null) {
            r = new RequestAcc(id, bySlot.size(), bySlot.size() < options.detailLimit());
            byId.put(id, r);
            bySlot.add(r);
        }
        // Each field read is a lookup by name in the JDK's consumer API (the larger part of the time on
        // big files), so fields only the event lists need are read only for requests that keep them.
        boolean detail = r.detail;
        switch (type) {
            case HopscopeContract.REQUEST -> {
                r.ended = true;
                r.name = intern(JfrEvents.string(e, "name"));
                r.boundary = intern(JfrEvents.string(e, "boundary"));
                r.url = JfrEvents.string(e, "url");
                r.outcome = intern(JfrEvents.string(e, "outcome"));
                r.error = intern(JfrEvents.string(e, "error"));
                r.statusCode = JfrEvents.intField(e, "statusCode", -1);
                ThreadRef st = jfr.threadField(e, "startThread");
                r.startThread = st != null ? st : jfr.eventThread(e);
                r.startEpochNanos = start;
                r.durationNanos = end - start;
            }
            case HopscopeContract.SEGMENT -> {
                ThreadRef thread = jfr.eventThread(e);
                r.addSegment(new Segment(thread, detail ? intern(JfrEvents.string(e, "kind")) : null, start, end,
                        JfrEvents.longField(e, "allocatedBytes", 0),
                        detail ? JfrEvents.longField(e, "cpuNanos", -1) : -1));
                index.add(thread.javaId(), start, end, r.slot);
            }
            case HopscopeContract.HOP -> {
                String kind = intern(JfrEvents.string(e, "kind"));
                long delay = JfrEvents.longField(e, "delayNanos", 0);
                if (detail) {
                    ThreadRef to = jfr.threadField(e, "toThread");
                    ThreadRef from = jfr.threadField(e, "fromThread");
                    r.addHop(new Hop(kind, from != null ? from : ThreadRef.UNKNOWN,
                            to != null ? to : jfr.eventThread(e), start, delay, intern(JfrEvents.string(e, "via"))));
                } else {
                    r.addHop(new Hop(kind, ThreadRef.UNKNOWN, ThreadRef.UNKNOWN, start, delay, null));
                }
            }
            case HopscopeContract.WAIT -> {
                boolean nonBlocking = JfrEvents.booleanField(e, "nonBlockingThread");
                if (detail) {
                    r.addWait(new Wait(intern(JfrEvents.string(e, "kind")), jfr.eventThread(e),
                            jfr.threadField(e, "wakerThread"), start, end, JfrEvents.longField(e, "wakeLatencyNanos", -1),
                            nonBlocking, intern(JfrEvents.string(e, "outcome"))));
                } else {
                    r.addWait(new Wait(null, null, null, start, end, -1, nonBlocking, null));
                }
            }
            case HopscopeContract.SPAN -> r.addSpan(new Span(JfrEvents.longField(e, "spanId", 0),
                    JfrEvents.longField(e, "parentSpanId", 0), intern(JfrEvents.string(e, "kind")),
                    intern(JfrEvents.string(e, "name")), detail ? intern(JfrEvents.string(e, "mode")) : null,
                    detail ? JfrEvents.intField(e, "depth", 0) : 0, detail ? jfr.eventThread(e) : null, start, end));
            default -> {
            }
        }
    }

    private void onJdkEvent(RecordedEvent e) {
        jdkEvents++;
        String type = e.getEventType().getName();
        long start = JfrEvents.startNanos(e);
        long end = JfrEvents.endNanos(e);
        seen(start, end);
        switch (type) {
            case "jdk.JavaMonitorEnter" -> lock(e, "monitor", "monitorClass", start, end);
            case "jdk.ThreadPark" -> lock(e, "park", "parkedClass", start, end);
            case "jdk.ObjectAllocationSample" -> {
                long weight = JfrEvents.longField(e, "weight", 0);
                sampledAllocBytes += weight;
                if (e.getThread() == null) {
                    return;
                }
                int slot = index.find(e.getThread().getJavaThreadId(), start, start);
                if (slot >= 0) {
                    sampledAllocBytesInRequests += weight;
                    RecordedClass c = e.hasField("objectClass") ? e.getClass("objectClass") : null;
                    bySlot.get(slot).addAllocationSample(JfrEvents.topFrame(e.getStackTrace()),
                            c == null ? "?" : c.getName(), weight);
                }
            }
            case "jdk.GCPhasePause" -> phasePauses.add(new GcPause(JfrEvents.longField(e, "gcId", -1),
                    JfrEvents.string(e, "name"), start, end));
            case "jdk.GarbageCollection" -> {
                collections.add(new GcPause(JfrEvents.longField(e, "gcId", -1), JfrEvents.string(e, "name"), start, end));
                gcPauseSumNanos += e.hasField("sumOfPauses") ? e.getDuration("sumOfPauses").toNanos() : end - start;
            }
            case "jdk.JavaThreadStatistics" -> peakThreads = Math.max(peakThreads, JfrEvents.longField(e, "peakCount", -1));
            default -> {
            }
        }
    }

    private void joined(RecordedEvent e, SegmentJoin join) {
        int slot = -1;
        // Samples (jdk.ExecutionSample, jdk.NativeMethodSample, async-profiler's) name the thread they
        // sampled in sampledThread; their event thread is empty.
        jdk.jfr.consumer.RecordedThread thread = e.getThread() != null ? e.getThread()
                : e.hasField("sampledThread") ? e.getThread("sampledThread") : null;
        if (thread != null) {
            long start = JfrEvents.startNanos(e);
            slot = index.find(thread.getJavaThreadId(), start, start);
        }
        RequestAcc r = slot >= 0 ? bySlot.get(slot) : null;
        join.accept(e, r != null && r.ended ? r.id : 0, r != null && r.ended ? r.name : null);
    }

    /**
     * Also streams the events of type {@code eventName} in the second pass and hands each to
     * {@code join} with the request it fell in (call before {@link #analyze()}). Several joins for one
     * type run in the order they were added.
     */
    public RecordingAnalyzer join(String eventName, SegmentJoin join) {
        extraJoins.merge(eventName, join, (a, b) -> (e, id, name) -> {
            a.accept(e, id, name);
            b.accept(e, id, name);
        });
        return this;
    }

    private void lock(RecordedEvent e, String kind, String classField, long start, long end) {
        if (e.getThread() == null || end <= start) {
            return;
        }
        long javaId = e.getThread().getJavaThreadId();
        int slot = index.find(javaId, start, end);
        if (slot < 0) {
            return;
        }
        long overlap = index.overlapNanos(javaId, start, end, slot);
        if (overlap <= 0) {
            return;
        }
        RecordedClass c = e.hasField(classField) ? e.getClass(classField) : null;
        bySlot.get(slot).addLock(kind, c == null ? "?" : c.getName(), overlap, end - start,
                () -> JfrEvents.stack(e.getStackTrace(), 6));
    }

    // GC pauses are few (a handful a second), so they are kept and joined once all are known.
    private void joinGcPauses() {
        List<GcPause> pauses = phasePauses.isEmpty() ? collections : phasePauses;
        pauses.sort(Comparator.comparingLong(GcPause::startEpochNanos));
        long[] starts = pauses.stream().mapToLong(GcPause::startEpochNanos).toArray();
        for (RequestAcc r : bySlot) {
            if (!r.ended) {
                continue;
            }
            int i = upperBound(starts, r.endEpochNanos()) - 1;
            // Pauses do not overlap each other, so walk back until one ends before the request starts.
            for (; i >= 0; i--) {
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
    }

    private static int upperBound(long[] a, long t) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
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
        NameGlob glob = options.nameGlob() == null ? null : new NameGlob(options.nameGlob());
        long incomplete = 0;
        long allocInRequests = 0;
        Map<String, SummaryBuilder> summaries = new LinkedHashMap<>();
        List<RequestAcc> selected = new ArrayList<>();
        for (RequestAcc r : bySlot) {
            if (!r.ended) {
                incomplete++;
                continue;
            }
            allocInRequests += r.allocatedBytes;
            String name = r.name == null ? "?" : r.name;
            if (glob != null && !glob.matches(name)) {
                continue;
            }
            summaries.computeIfAbsent(name, SummaryBuilder::new).add(r);
            selected.add(r);
        }
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
        if (bySlot.size() > options.detailLimit()) {
            warnings.add(file + ": " + bySlot.size() + " requests; event lists (hops, segments, waits, spans) kept for the first "
                    + options.detailLimit() + " only, totals for all");
        }
        agentErrors.forEach((what, count) -> warnings.add(file + ": agent error (" + count + "x) " + what));

        List<NameSummary> summary = new ArrayList<>();
        summaries.values().forEach(s -> summary.add(s.build()));
        summary.sort(Comparator.comparingLong(NameSummary::count).reversed().thenComparing(NameSummary::name));

        List<Request> requests = select(selected);
        long gcCount = collections.stream().mapToLong(GcPause::gcId).distinct().count();
        long gcNanos = gcPauseSumNanos > 0 ? gcPauseSumNanos
                : phasePauses.stream().mapToLong(GcPause::durationNanos).sum();
        RecordingInfo info = new RecordingInfo(file.toString(),
                minStart == Long.MAX_VALUE ? 0 : minStart, maxEnd == Long.MIN_VALUE ? 0 : maxEnd,
                hopscopeEvents > 0, hopscopeEvents, jdkEvents, agentVersion, agentOptions,
                clock.offsetNanos(), clock.count(), gcCount, gcNanos, peakThreads, allocInRequests,
                sampledAllocBytes, sampledAllocBytesInRequests, incomplete, List.copyOf(warnings));
        return new Report(info, List.copyOf(summary), requests);
    }

    // Requests are turned into records only when an output reads them (a view over the totals), so
    // that writing every request of a huge recording as JSON holds one record at a time.
    private List<Request> select(List<RequestAcc> selected) {
        if (options.top() == 0) {
            return List.of();
        }
        Comparator<RequestAcc> order = accOrder(options.sort());
        List<RequestAcc> chosen;
        if (options.top() < 0 || selected.size() <= options.top()) {
            chosen = new ArrayList<>(selected);
            chosen.sort(order);
        } else {
            PriorityQueue<RequestAcc> worst = new PriorityQueue<>(order.reversed());
            for (RequestAcc r : selected) {
                worst.add(r);
                if (worst.size() > options.top()) {
                    worst.poll();
                }
            }
            chosen = new ArrayList<>(worst);
            chosen.sort(order);
        }
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

    /** The same order as {@link SortField#order()}, on the totals, without building records. */
    static Comparator<RequestAcc> accOrder(SortField sort) {
        Comparator<RequestAcc> c = switch (sort) {
            case duration -> Comparator.comparingLong((RequestAcc r) -> r.durationNanos).reversed();
            case hops -> Comparator.comparingInt((RequestAcc r) -> r.hops).reversed();
            case allocated -> Comparator.comparingLong((RequestAcc r) -> r.allocatedBytes).reversed();
            case blocked -> Comparator.comparingLong((RequestAcc r) -> r.blockedNanos).reversed();
            case lock -> Comparator.comparingLong((RequestAcc r) -> r.lockNanos).reversed();
            case gc -> Comparator.comparingLong((RequestAcc r) -> r.gcNanos).reversed();
            case start -> Comparator.comparingLong((RequestAcc r) -> r.startEpochNanos);
        };
        return c.thenComparingLong(r -> r.id);
    }

    /** Wall time of the two passes, for the benchmark's figures. */
    public String passTimes() {
        return String.format(java.util.Locale.ROOT, "pass 1 (agent events) %.2f s, pass 2 (jdk events) %.2f s",
                pass1Nanos / 1e9, pass2Nanos / 1e9);
    }

    /** The clock mapping found in the recording (for merging eBPF data). */
    public ClockAlignment clock() {
        return clock;
    }
}
