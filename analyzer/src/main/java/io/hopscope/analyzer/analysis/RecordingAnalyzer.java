package io.hopscope.analyzer.analysis;

import static io.hopscope.analyzer.read.HopscopeEvents.each;

import io.hopscope.analyzer.analysis.memory.DetailBudget;
import io.hopscope.analyzer.analysis.threads.SegmentWindow;
import io.hopscope.analyzer.model.LateEvents;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.read.ChunkScan;
import io.hopscope.analyzer.read.ClockAlignment;
import io.hopscope.analyzer.read.HopscopeContract;
import io.hopscope.analyzer.read.HopscopeEvents.AgentErrorEvent;
import io.hopscope.analyzer.read.HopscopeEvents.AgentInfoEvent;
import io.hopscope.analyzer.read.HopscopeEvents.AgentWorkEvent;
import io.hopscope.analyzer.read.HopscopeEvents.ClockSyncEvent;
import io.hopscope.analyzer.read.HopscopeEvents.HopEvent;
import io.hopscope.analyzer.read.HopscopeEvents.MountsEvent;
import io.hopscope.analyzer.read.HopscopeEvents.RequestEvent;
import io.hopscope.analyzer.read.HopscopeEvents.SegmentEvent;
import io.hopscope.analyzer.read.HopscopeEvents.SpanEvent;
import io.hopscope.analyzer.read.HopscopeEvents.WaitEvent;
import io.hopscope.analyzer.read.JfrEvents;
import io.hopscope.analyzer.read.RecordingProblem;
import io.hopscope.analyzer.model.Request;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.LongConsumer;
import jdk.jfr.consumer.EventStream;
import io.hopscope.analyzer.read.JfrEvent;

/**
 * Joins one recording into a {@link Report} in a single streaming pass, with memory bounded by the
 * requests in flight rather than by the file. This class drives the stream and the flush points; the
 * jobs are its parts: {@link RequestEvents} (the agent's events into requests), {@link JdkEventAttribution}
 * (locks and allocation samples into the segments they fall in), {@link GcPauses}, {@link Selection}
 * (summary, top-N or every request, spilled), {@link RecordingFacts}, and {@link SampleJoins} (extra joins).
 *
 * <p>The file is not in time order across threads (each thread's buffer is written when it fills, or
 * at a flush point), so joins happen at flush points. A request is finished two flush points after
 * its hopscope.Request event (by then its events committed on other threads just after its end have
 * been read too): GC pauses that overlap it are added, and it goes to the summary and the selection,
 * then out of memory. A straggler later than that is added to its request where the selection holds
 * it and to its name's summary ({@link FinishedRequests}), counted and warned about.
 *
 * <p>The same pass runs on a live stream ({@link #watching}, {@link #watch}): there is no report, each
 * request goes out as it finishes, and what the pass keeps stays bounded however long it runs.
 */
public final class RecordingAnalyzer {

    // A request is finished two flush points after its hopscope.Request event: an event of it can be
    // committed just after that event on another thread (a pipeline policy's span ending on the event
    // loop after the caller returned) and so land after the next flush point; one flush point of lag
    // lost 6 such spans in a 10,705-request recording of the Netty sample. Later ones are added to
    // their request after the fact (FinishedRequests), which cannot move it in the latency histogram
    // but need not: its duration is its hopscope.Request event's.
    private static final int FINISH_LAG = 2;

    // What an ended request waiting for its lag holds (RequestInProgress and its arrays, without event
    // lists): 352 bytes shallow and about as much in arrays in a heap histogram of a 2 GB file's run.
    static final long WAITING_REQUEST_BYTES = 1024;

    private final Path file;
    private final AnalysisOptions options;
    // A watch (a live stream): each finished request goes here, with its lists; null for a file's report.
    private final Consumer<Request> handOver;
    // A watch: the newest event time read by each of the last FINISH_LAG + 1 flush points, oldest first.
    private final long[] maxEndAtFlush = new long[FINISH_LAG + 1];
    private LongConsumer finishedThrough;
    // Set by endWatch: a watched stream's events that come after it are not read.
    private boolean watchEnded;
    private final JfrEvents jfr = new JfrEvents();
    private final SegmentWindow<RequestInProgress> window = new SegmentWindow<>(r -> r.finished);
    private final RecordingFacts facts;
    private final GcPauses gc;
    private final JdkEventAttribution jdk;
    private final DetailBudget budget;
    private final Selection selection;
    private SampleJoins joins;
    private final Map<String, Consumer<JfrEvent>> listeners = new LinkedHashMap<>();
    // Told the share of the recording's time read so far at each flush point, or null.
    private DoubleConsumer progress;
    // The file's chunk headers when the command scanned them already (for its window), or null.
    private ChunkScan.Result header;
    private long progressStart;
    private long progressSpan;
    private RequestEvents requests;
    private long flushes;
    private long passNanos;
    // Ended requests that may wait for their flush lag at once: a quarter of the heap's worth. A file
    // whose flush intervals hold more (a dump with few flush points, a slow disk) finishes its
    // earliest ended requests sooner; a straggler of theirs then comes late (FinishedRequests).
    private long maxWaiting = Math.max(1, Runtime.getRuntime().maxMemory() / 4 / WAITING_REQUEST_BYTES);
    private long finishedEarly;

    public RecordingAnalyzer(Path file, AnalysisOptions options) {
        this(file, file.toString(), options, null);
    }

    private RecordingAnalyzer(Path file, String source, AnalysisOptions options, Consumer<Request> handOver) {
        this.file = file;
        this.options = options;
        this.handOver = handOver;
        this.facts = new RecordingFacts(source);
        this.gc = new GcPauses(facts);
        this.jdk = new JdkEventAttribution(facts, jfr, window);
        this.budget = new DetailBudget(options.detailBytes());
        this.selection = handOver == null ? new Selection(options, budget) : Selection.handingOver(options, budget, handOver);
        java.util.Arrays.fill(maxEndAtFlush, Long.MIN_VALUE);
    }

    /**
     * An analyzer of a live stream ({@link #watch}) instead of a file: each request that finishes (of the
     * names and window {@code options} select) goes to {@code finished} with its event lists (within the
     * options' budget), on the stream's thread, and then its joined events to the joins ({@link #join}),
     * so that a consumer of both knows which request the joined events that follow belong to. Nothing is
     * kept for a report. {@code source} names the stream in what the analyzer says of it.
     */
    public static RecordingAnalyzer watching(String source, AnalysisOptions options, Consumer<Request> finished) {
        return new RecordingAnalyzer(null, source, options, finished);
    }

    /**
     * Reads {@code stream} (a live one: a JVM's, over JMX) in the single pass of this analyzer, made by
     * {@link #watching}; call before the stream starts, after the joins are added. After each flush
     * point, once the requests due have been handed over, {@code through} is told an event time before
     * which every request that ended has been: a request's hopscope.Request event is read by the flush
     * point after its commit, and handed over {@value #FINISH_LAG} flush points later, so that time is
     * the newest one read by the flush point {@value #FINISH_LAG} before. {@link #endWatch} when the
     * stream has ended.
     */
    public void watch(EventStream stream, LongConsumer through) {
        if (handOver == null) {
            throw new IllegalStateException("an analyzer of a file is read by analyze()");
        }
        finishedThrough = through;
        requests = new RequestEvents(facts, jfr, window, selection, budget);
        requests.explainsBlindSpots = false;
        // The stream's thread hands events over until it has stopped, which endWatch's caller may not wait
        // out (a gone target's stream can take its time to end): each handler, the flush and endWatch hold
        // this analyzer, and nothing is read after the end.
        io.hopscope.analyzer.read.JdkEvent view = new io.hopscope.analyzer.read.JdkEvent();
        handlers().forEach((name, handler) -> {
            Consumer<jdk.jfr.consumer.RecordedEvent> feed = view.feeding(handler);
            stream.onEvent(name, e -> {
                synchronized (this) {
                    if (!watchEnded) {
                        feed.accept(e);
                    }
                }
            });
        });
        stream.onFlush(() -> {
            synchronized (this) {
                if (!watchEnded) {
                    onFlush();
                }
            }
        });
    }

    /**
     * The stream has ended (call after it has, on any thread): the ended requests that waited for their
     * lag, and the joined events they have, are handed over; those still in flight are dropped. Returns
     * the newest event time read: every request that ended before it has been handed over.
     */
    public synchronized long endWatch() {
        watchEnded = true;
        finishPass();
        requests.dropUnfinished();
        return facts.maxEnd;
    }

    /**
     * The pass has read its last event: the JDK events still waiting are joined, the ended requests
     * handed over or kept, and the joined events of requests that never ended dropped.
     */
    private void finishPass() {
        jdk.joinRemaining();
        if (joins != null) {
            joins.placeRemaining();
        }
        finishEnded(Long.MAX_VALUE);
        if (joins != null) {
            joins.dropUnfinished();
        }
    }

    /**
     * Also hands each event of type {@code eventName} to {@code join} with the request it fell in, in
     * this same pass, when that request finishes (call before {@link #analyze()}). Several joins for
     * one type run in the order they were added. Costs the joined events of the requests in flight
     * (their stacks are the file's, decoded only for the requests the report keeps).
     */
    public RecordingAnalyzer join(String eventName, SegmentJoin join) {
        if (joins == null) {
            joins = new SampleJoins(window);
        }
        joins.add(eventName, join);
        return this;
    }

    /**
     * Tells {@code progress} at each flush point how far the read has come, as the share (0 to 1) of
     * the recording's time span (from its chunk headers) its events have reached (call before
     * {@link #analyze()}).
     */
    public RecordingAnalyzer progress(DoubleConsumer progress) {
        this.progress = progress;
        return this;
    }

    /** The file's chunk headers as the command scanned them already (for its window): the pass reads them once. */
    public RecordingAnalyzer scanned(ChunkScan.Result header) {
        this.header = header;
        return this;
    }

    /**
     * Reads the file with {@code reader} (call before {@link #analyze()}; the direct one by default); a line
     * for the user (the direct reader could not read the file, the JDK's did) goes to {@code notices}.
     */
    public RecordingAnalyzer reader(JfrEvents.Reader reader, Consumer<String> notices) {
        jfr.reader(reader, notices);
        return this;
    }

    /** Reads the file and builds the report; bad data raises {@link RecordingProblem}. */
    public Report analyze() throws RecordingProblem {
        if (file == null) {
            throw new IllegalStateException("an analyzer of a stream is read by watch()");
        }
        long t0 = System.nanoTime();
        ChunkScan.Result scan = header != null ? header : ChunkScan.scan(file);
        if (progress != null) {
            progressStart = scan.startEpochNanos();
            progressSpan = scan.endEpochNanos() - scan.startEpochNanos();
        }
        requests = new RequestEvents(facts, jfr, window, selection, budget);
        scan = jfr.stream(file, scan, handlers(), this::onFlush);
        facts.scanMajor = scan.major();
        facts.scanMinor = scan.minor();
        if (scan.unfinished()) {
            facts.warn("unfinished recording (its jvm was killed, or is still recording): "
                    + "read what was flushed to the file, later events are lost");
        } else if (scan.truncated()) {
            facts.warn("truncated recording: read the " + scan.completeChunks() + " complete chunk(s), "
                    + scan.readableBytes() + " of " + scan.fileBytes() + " bytes; the rest is lost");
        }
        if (scan.duplicateChunks() > 0) {
            facts.warn(scan.duplicateChunks() + " chunk(s) repeat an earlier chunk of the file (same header): each was"
                    + " read once");
        }
        finishPass();
        passNanos = System.nanoTime() - t0;
        return build();
    }

    /**
     * Also hands each event of type {@code eventName} to {@code listener} in this same pass, after the
     * analyzer's own handler of that type, if any (call before {@link #analyze()}): another consumer of the
     * recording (the kernel join) reads it without a pass of its own. Listeners of one type run in the order
     * they were added.
     */
    public RecordingAnalyzer listen(String eventName, Consumer<JfrEvent> listener) {
        listeners.merge(eventName, listener, Consumer::andThen);
        return this;
    }

    private Map<String, Consumer<JfrEvent>> handlers() {
        Map<String, Consumer<JfrEvent>> h = new LinkedHashMap<>();
        // A watch has no eBPF input to align: its clock events (four a second, for days) are a tick only.
        Consumer<ClockSyncEvent> clockSync = handOver == null ? facts::onClockSync
                : e -> facts.hopscopeEvent(e.startNanos(), e.endNanos());
        h.put(HopscopeContract.SEGMENT, each(new SegmentEvent(), requests::onSegment));
        h.put(HopscopeContract.HOP, each(new HopEvent(), requests::onHop));
        h.put(HopscopeContract.SPAN, each(new SpanEvent(), requests::onSpan));
        h.put(HopscopeContract.WAIT, each(new WaitEvent(), requests::onWait));
        h.put(HopscopeContract.MOUNTS, each(new MountsEvent(), requests::onMounts));
        h.put(HopscopeContract.AGENT_WORK, each(new AgentWorkEvent(), requests::onAgentWork));
        h.put(HopscopeContract.REQUEST, each(new RequestEvent(), this::onRequest));
        h.put(HopscopeContract.CLOCK_SYNC, each(new ClockSyncEvent(), clockSync));
        if (handOver != null) {
            // A watch hands its requests to profiles: the report's joins of JDK events into each request
            // (locks, allocation sites, parks as blind spots, GC pauses) and the recording's facts would be
            // work for nothing, for days. Its joins (join()) place the JDK events it takes.
            addJoinsAndListeners(h);
            return h;
        }
        h.put(HopscopeContract.AGENT_INFO, each(new AgentInfoEvent(), facts::onAgentInfo));
        h.put(HopscopeContract.AGENT_ERROR, each(new AgentErrorEvent(), facts::onAgentError));
        // Carried by hopscope.Wait's nonBlockingThread too; this one only adds a stack.
        h.put(HopscopeContract.NON_BLOCKING_WAIT, facts::onCountedOnlyAgentEvent);
        h.put(HopscopeContract.MONITOR_ENTER, jdk::onMonitorEnter);
        h.put(HopscopeContract.THREAD_PARK, jdk::onPark);
        h.put(HopscopeContract.MONITOR_WAIT, jdk::onMonitorWait);
        h.put(HopscopeContract.ALLOCATION_SAMPLE, jdk::onAllocationSample);
        h.put(HopscopeContract.VIRTUAL_THREAD_PINNED, jdk::onPinned);
        h.put(HopscopeContract.GC_PHASE_PAUSE, gc::onPhasePause);
        h.put(HopscopeContract.GARBAGE_COLLECTION, gc::onCollection);
        h.put(HopscopeContract.THREAD_STATISTICS, facts::onThreadStatistics);
        h.put(HopscopeContract.CPU_LOAD, facts::onCountedOnly);
        h.put(HopscopeContract.THREAD_START, facts::onCountedOnly);
        h.put(HopscopeContract.THREAD_END, facts::onCountedOnly);
        addJoinsAndListeners(h);
        return h;
    }

    private void addJoinsAndListeners(Map<String, Consumer<JfrEvent>> h) {
        if (joins != null) {
            joins.handlers().forEach((name, join) -> h.merge(name, join, Consumer::andThen));
        }
        listeners.forEach((name, listener) -> h.merge(name, listener, Consumer::andThen));
    }

    private void onRequest(RequestEvent e) {
        requests.onRequest(e);
        if (requests.endedWaiting() > maxWaiting) {
            finish(requests.nextEnded(Long.MAX_VALUE));
            // The segment window holds the requests it has segments of until it is pruned, at flush
            // points: prune it as often as a waiting queue's worth has been finished early.
            if (++finishedEarly % maxWaiting == 0) {
                window.prune();
            }
        }
    }

    /** How many ended requests may wait for their flush lag at once (tests; call before {@link #analyze()}). */
    RecordingAnalyzer maxWaiting(long requests) {
        this.maxWaiting = requests;
        return this;
    }

    // Every event committed before this point has been read: join what waited, finish what ended long enough ago.
    private void onFlush() {
        flushes++;
        if (progress != null && progressSpan > 0 && facts.maxEnd > progressStart) {
            progress.accept(Math.min(1.0, (facts.maxEnd - progressStart) / (double) progressSpan));
        }
        requests.onFlush(flushes);
        jdk.onFlush(flushes);
        if (joins != null) {
            joins.onFlush(flushes);
        }
        finishEnded(flushes - FINISH_LAG);
        window.prune();
        gc.prune(requests.earliestInFlight(), facts.maxEnd);
        if (finishedThrough != null) {
            System.arraycopy(maxEndAtFlush, 1, maxEndAtFlush, 0, FINISH_LAG);
            maxEndAtFlush[FINISH_LAG] = facts.maxEnd;
            if (maxEndAtFlush[0] != Long.MIN_VALUE) {
                finishedThrough.accept(maxEndAtFlush[0]);
            }
        }
    }

    private void finishEnded(long upToFlush) {
        for (RequestInProgress r = requests.nextEnded(upToFlush); r != null; r = requests.nextEnded(upToFlush)) {
            finish(r);
        }
    }

    /**
     * The request is complete: GC pauses, then into the summary and the selection, then out of memory. A
     * watch hands it over before its joined events (see {@link #watching}).
     */
    private void finish(RequestInProgress r) {
        requests.finished(r);
        gc.join(r);
        if (handOver != null) {
            selection.add(r);
        }
        if (joins != null) {
            joins.finished(r, !selection.outsideWindow(r));
        }
        if (handOver == null) {
            selection.add(r);
        }
    }

    private Report build() {
        long incomplete = requests.dropUnfinished(); // in flight when the recording ended: no hopscope.Request event
        facts.warnNoEvents();
        if (incomplete > 0) {
            facts.warn(incomplete + " request(s) without a hopscope.Request event "
                    + "(still running when the recording ended) are left out");
        }
        // Only what the user asked for and does not get is worth a warning: a shown request without
        // its event lists. Requests beyond the budget that are not shown cost nothing visible.
        long[] cut = selection.shownWithoutDetail();
        if (cut[0] > 0) {
            facts.warn(cut[0] + " of the " + cut[1] + " requests shown have totals but no event lists (hops, segments,"
                    + " waits, spans): up to " + requests.peakInFlight + " requests were in flight at once, and their"
                    + " lists are kept within " + DetailBudget.mib(budget.limitBytes()) + " (--detail-memory)");
        }
        if (finishedEarly > 0) {
            facts.warn(finishedEarly + " request(s) were finished before the file's next two flush points, to keep at most "
                    + maxWaiting + " ended requests in memory (its flush intervals hold more): an event of theirs"
                    + " written after that is added after the fact, a JDK event in their segments is left out");
        }
        LateEvents late = requests.finishedRequests.counts();
        if (late.count() > 0) {
            facts.warn(late.count() + " hopscope event(s) came in the file after their request was finished (two "
                    + "flush points after its end): added to it and its name's summary"
                    + (late.notInShownRequest() > 0 ? ", " + late.notInShownRequest() + " of them to the summary only "
                            + "(their request was already written out)" : "")
                    + (late.leftOut() > 0 ? ", " + late.leftOut() + " left out (their request finished too long before "
                            + "to be remembered)" : ""));
        }
        RequestWindow window = selection.window();
        List<NameSummary> summary = selection.summary();
        if (!window.isAll() && summary.isEmpty()) {
            facts.warn("no request started in the window (" + window.asked() + "): " + window.leftOutBefore()
                    + " started before it, " + window.leftOutAfter() + " after");
        }
        if (selection.excludedWarmup() > 0) {
            facts.warn(selection.excludedWarmup() + " warm-up request(s) (their threads loaded classes) are left out of"
                    + " every figure (--warmup exclude)");
        }
        RecordingInfo info = facts.build(gc, requests.allocInRequests, jdk, incomplete, late);
        return new Report(info, summary, selection.requests(), window, selection.kept(), selection.warmupRequests(),
                options.warmup());
    }

    /** Wall time of the pass, and what was in flight, for the benchmark's figures. */
    public String passTimes() {
        return String.format(Locale.ROOT, "one pass %.2f s, %d flush points, %d requests, at most %d in flight,"
                        + " event lists at most %s of %s (%d request(s) without)",
                passNanos / 1e9, flushes, requests == null ? 0 : requests.requestsSeen,
                requests == null ? 0 : requests.peakInFlight, DetailBudget.mib(budget.peakBytes()),
                DetailBudget.mib(budget.limitBytes()), budget.droppedRequests());
    }

    /** The clock mapping found in the recording (for merging eBPF data). */
    public ClockAlignment clock() {
        return facts.clock;
    }
}
