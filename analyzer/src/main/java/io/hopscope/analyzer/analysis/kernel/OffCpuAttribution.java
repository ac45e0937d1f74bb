package io.hopscope.analyzer.analysis.kernel;

import static io.hopscope.analyzer.read.HopscopeEvents.each;

import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.KernelSummary;
import io.hopscope.analyzer.model.KernelView;
import io.hopscope.analyzer.model.OffCpuInterval;
import io.hopscope.analyzer.model.OffCpuOverlap;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.WakePair;
import io.hopscope.analyzer.model.Waker;
import io.hopscope.analyzer.read.BpfInput;
import io.hopscope.analyzer.read.ClockAlignment;
import io.hopscope.analyzer.read.FoldedReader;
import io.hopscope.analyzer.read.HopscopeContract;
import io.hopscope.analyzer.read.HopscopeEvents.ClockSyncEvent;
import io.hopscope.analyzer.read.HopscopeEvents.RequestEvent;
import io.hopscope.analyzer.read.HopscopeEvents.SegmentEvent;
import io.hopscope.analyzer.read.HopscopeEvents.WaitEvent;
import io.hopscope.analyzer.read.JfrEvents;
import io.hopscope.analyzer.read.OffCpuReader;
import io.hopscope.analyzer.read.RecordingProblem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import io.hopscope.analyzer.read.JfrEvent;
import io.hopscope.analyzer.read.JfrThread;

/**
 * Joins {@code offwake} output to the requests of one recording: an off-CPU interval of OS thread
 * {@code tid} counts for a request as far as it overlaps that request's segments and waits on the same
 * thread (an interval inside a {@code Mono.block} wait is what the wait cost in the kernel).
 *
 * <p>It reads what it needs from the recording itself, the agent's {@code Request}, {@code Segment},
 * {@code Wait} and {@code ClockSync} events: as a listener of the analyzer's pass ({@link #readPlacesIn}),
 * so that a report with {@code --bpf} reads the file once, or in a pass of its own where no report is
 * made ({@code diff}, {@code flame --kind offwake}); either way it depends on nothing inside
 * {@link RecordingAnalyzer}'s accounting. The places (segments and waits) are kept per OS thread id
 * as sorted primitive arrays (about 30 bytes each); the eBPF file is then streamed, each interval
 * looked up by binary search, so it is never held or sorted. Per request only aggregates are kept
 * ({@link RequestKernelFigures}).
 *
 * <p>A request is marked incomplete when one of its places overlaps a window of the file's loss
 * records on a thread the window names (or on any thread, for a window that names none): every
 * interval the tracer lost lies inside such a window and is of one of its threads, and an interval
 * counts for a request only where it overlaps one of the request's places on the interval's thread,
 * so no other request can miss one.
 */
public final class OffCpuAttribution {

    static final String SEGMENT = "segment";

    private final Path recording;
    private final JfrEvents jfr = new JfrEvents();
    private final ClockAlignment clock = new ClockAlignment();
    private final Map<Long, RequestKernelFigures> byId = new HashMap<>();
    private final List<RequestKernelFigures> bySlot = new ArrayList<>();
    private final Map<Long, ThreadPlaces> lanes = new HashMap<>();
    private final Map<Long, String> namesByOsId = new HashMap<>();
    private final List<String> placeNames = new ArrayList<>(List.of(SEGMENT));
    private final List<String> enders = new ArrayList<>();
    private final Map<String, Integer> enderIds = new HashMap<>();
    private long intervals;
    private long intervalsInRequests;
    private long maxStackWeight;
    private Consumer<OffCpuOverlap> overlaps;
    // The places came in an analyzer's pass (readPlacesIn).
    private boolean placesRead;

    public OffCpuAttribution(Path recording) {
        this.recording = recording;
    }

    /** Reads the recording with {@code reader} when it reads it in a pass of its own (see {@link #join}). */
    public OffCpuAttribution reader(JfrEvents.Reader reader, Consumer<String> notices) {
        jfr.reader(reader, notices);
        return this;
    }

    /**
     * Also hands each part of an interval that falls in a place of a finished request to {@code sink},
     * in file order, as it is joined (the pictures draw them; the report keeps only totals).
     */
    public OffCpuAttribution onOverlap(Consumer<OffCpuOverlap> sink) {
        this.overlaps = sink;
        return this;
    }

    /**
     * Reads the recording's places in {@code analyzer}'s pass instead of a pass of its own, so that the
     * recording is read once (call before it analyzes, and {@link #join} after). Folded input needs no
     * places: for it, nothing is read.
     */
    public OffCpuAttribution readPlacesIn(RecordingAnalyzer analyzer, Path bpfFile) throws RecordingProblem {
        return readPlacesIn(analyzer, BpfInput.detect(bpfFile));
    }

    /** The same for an eBPF file whose kind the command has told from its content already ({@code input}). */
    public OffCpuAttribution readPlacesIn(RecordingAnalyzer analyzer, BpfInput input) {
        if (input == BpfInput.EVENTS) {
            placeReaders().forEach(analyzer::listen);
            placesRead = true;
        }
        return this;
    }

    /**
     * Reads the recording's places (unless {@link #readPlacesIn} had an analyzer's pass read them), then
     * joins {@code bpfFile} (events or folded, told from its content).
     */
    public KernelReport join(Path bpfFile) throws RecordingProblem {
        return join(bpfFile, BpfInput.detect(bpfFile));
    }

    /** The same for a {@code bpfFile} whose kind the command has told from its content already ({@code input}). */
    public KernelReport join(Path bpfFile, BpfInput input) throws RecordingProblem {
        if (input == BpfInput.FOLDED) {
            List<WakePair> pairs = FoldedReader.read(bpfFile);
            return new KernelReport(bpfFile.toString(), "folded", pairs.stream().mapToLong(WakePair::stacks).sum(), 0, 0,
                    Map.of(), List.of(), pairs, List.of("folded offwaketime output has no timestamps or thread ids: "
                            + "only totals per thread name are given, no per-request figures (record with offwake --events for those)"),
                    0, 0);
        }
        if (!placesRead) {
            jfr.stream(recording, placeReaders());
        }
        lanes.values().forEach(ThreadPlaces::freeze);
        if (!clock.isKnown()) {
            throw new RecordingProblem(recording + ": no hopscope.ClockSync events, so eBPF times cannot be aligned "
                    + "with it (record with the hopscope agent)");
        }
        Map<String, long[]> pairs = new HashMap<>();
        List<OffCpuReader.TracerSummary> summaries = new ArrayList<>(1);
        List<OffCpuReader.LossWindow> losses = new ArrayList<>();
        intervals = OffCpuReader.read(bpfFile, clock, i -> {
            add(i);
            maxStackWeight = Math.max(maxStackWeight, i.stackWeight());
            String waker = i.wakerComm() != null ? wakerName(i) : FoldedReader.NO_WAKER;
            long[] p = pairs.computeIfAbsent(name(i.tid(), i.comm()) + '\0' + waker, k -> new long[2]);
            p[0] += i.offCpuNanos() / 1000;
            p[1]++;
        }, summaries::add, losses::add);
        List<WakePair> threadNames = new ArrayList<>();
        pairs.forEach((k, v) -> threadNames.add(new WakePair(k.substring(0, k.indexOf('\0')),
                k.substring(k.indexOf('\0') + 1), v[0], v[1])));
        threadNames.sort(Comparator.comparingLong(WakePair::totalMicros).reversed()
                .thenComparing(WakePair::wakee).thenComparing(WakePair::waker));
        List<String> notes = new ArrayList<>();
        long placed = losses.stream().mapToLong(OffCpuReader.LossWindow::records).sum();
        long incomplete = markIncomplete(losses);
        if (!losses.isEmpty()) {
            notes.add(bpfFile + ": " + incomplete + " request(s) overlap lost eBPF records: their off-CPU figures are "
                    + "incomplete (marked; lower bounds): the tracer lost " + placed + " record(s) (ring buffer full) in "
                    + losses.size() + " window(s) (trace again with a larger --buffer-pages)");
        }
        for (OffCpuReader.TracerSummary s : summaries) {
            // Losses no loss record places in time (an older offwake), and a full thread map's: any
            // request's figures may be short.
            long unplaced = Math.max(0, s.lostRecords() - placed);
            if (unplaced + s.lostIntervals() + s.lostFutexCalls() > 0) {
                notes.add(bpfFile + ": incomplete: the tracer lost " + unplaced + " record(s) (ring buffer full)"
                        + (losses.isEmpty() ? "" : " that no loss record places in time") + ", "
                        + s.lostIntervals() + " interval(s) and " + s.lostFutexCalls() + " futex call(s) (thread map full); "
                        + "the kernel figures of any request may be too low (trace again with a larger --buffer-pages "
                        + "or --max-threads)");
            }
        }
        if (intervals > 0 && intervalsInRequests == 0) {
            notes.add(bpfFile + ": no off-CPU interval falls in a request: was it recorded from the same process "
                    + "at the same time as " + recording + "?");
        }
        // The summary line says it; a file cut short (no summary) by its sampled intervals' weight.
        long stackEvery = summaries.isEmpty() ? Math.max(1, maxStackWeight) : summaries.get(0).stackEvery();
        return build(bpfFile, stackEvery, threadNames, notes, losses.size(), incomplete);
    }

    /**
     * Marks every request with a place overlapping a loss window on a thread the window covers (ends
     * included: a lost interval may touch a place at a single instant) and returns how many finished
     * requests that makes. A window names the threads whose records it lost, or covers every thread.
     */
    private long markIncomplete(List<OffCpuReader.LossWindow> losses) {
        if (losses.isEmpty()) {
            return 0;
        }
        List<OffCpuReader.LossWindow> anyThread = new ArrayList<>();
        Map<Long, List<OffCpuReader.LossWindow>> byThread = new HashMap<>();
        for (OffCpuReader.LossWindow w : losses) {
            if (w.tids() == null) {
                anyThread.add(w);
            } else {
                for (long tid : w.tids()) {
                    byThread.computeIfAbsent(tid, t -> new ArrayList<>()).add(w);
                }
            }
        }
        Windows shared = Windows.merged(anyThread);
        lanes.forEach((tid, lane) -> {
            List<OffCpuReader.LossWindow> own = byThread.get(tid);
            Windows windows = shared;
            if (own != null) {
                List<OffCpuReader.LossWindow> all = new ArrayList<>(anyThread);
                all.addAll(own);
                windows = Windows.merged(all);
            }
            if (windows.n == 0) {
                return;
            }
            for (int k = 0; k < lane.size(); k++) {
                if (windows.overlaps(lane.start(k), lane.end(k))) {
                    bySlot.get(lane.slots[k]).incomplete = true;
                }
            }
        });
        return bySlot.stream().filter(r -> r.ended && r.incomplete).count();
    }

    /** Loss windows merged into disjoint ones sorted by start, so that each place is one binary search. */
    private record Windows(long[] from, long[] to, int n) {

        static Windows merged(List<OffCpuReader.LossWindow> losses) {
            List<OffCpuReader.LossWindow> sorted = new ArrayList<>(losses);
            sorted.sort(Comparator.comparingLong(OffCpuReader.LossWindow::fromEpochNanos));
            long[] from = new long[sorted.size()];
            long[] to = new long[sorted.size()];
            int n = 0;
            for (OffCpuReader.LossWindow w : sorted) {
                if (n > 0 && w.fromEpochNanos() <= to[n - 1]) {
                    to[n - 1] = Math.max(to[n - 1], w.toEpochNanos());
                } else {
                    from[n] = w.fromEpochNanos();
                    to[n] = w.toEpochNanos();
                    n++;
                }
            }
            return new Windows(from, to, n);
        }

        boolean overlaps(long start, long end) {
            // The last window starting at or before the place's end is the only one that can reach it.
            int w = Arrays.binarySearch(from, 0, n, end);
            w = w >= 0 ? w : -w - 2;
            return w >= 0 && to[w] >= start;
        }
    }

    // What the join needs of the recording: the clock mapping, each request's id and name, and its places.
    private Map<String, Consumer<JfrEvent>> placeReaders() {
        Map<String, Consumer<JfrEvent>> readers = new LinkedHashMap<>();
        readers.put(HopscopeContract.CLOCK_SYNC, each(new ClockSyncEvent(), e -> clock.add(e.startNanos(),
                e.monotonicNanos())));
        readers.put(HopscopeContract.REQUEST, each(new RequestEvent(), e -> {
            RequestKernelFigures r = request(e.requestId());
            if (r != null) {
                r.ended = true;
                r.name = e.name();
            }
        }));
        readers.put(HopscopeContract.SEGMENT, each(new SegmentEvent(), e -> place(e.requestId(), e.eventThread(),
                e.startNanos(), e.endNanos(), 0)));
        readers.put(HopscopeContract.WAIT, each(new WaitEvent(), e -> {
            String kind = e.kind();
            String label = kind == null ? "wait" : kind;
            int place = placeNames.indexOf(label);
            if (place < 0) {
                place = placeNames.size();
                placeNames.add(label);
            }
            place(e.requestId(), e.eventThread(), e.startNanos(), e.endNanos(), place);
            ThreadRef waker = jfr.thread(e.wakerThread());
            if (waker != null) {
                known(waker);
            }
        }));
        return readers;
    }

    private RequestKernelFigures request(long id) {
        if (id == 0) {
            return null;
        }
        return byId.computeIfAbsent(id, k -> {
            RequestKernelFigures r = new RequestKernelFigures(k, bySlot.size());
            bySlot.add(r);
            return r;
        });
    }

    private void place(long requestId, JfrThread thread, long start, long end, int place) {
        RequestKernelFigures r = request(requestId);
        ThreadRef t = jfr.thread(thread);
        if (r == null || t == null || t.osId() < 0) {
            return;
        }
        known(t);
        lanes.computeIfAbsent(t.osId(), k -> new ThreadPlaces()).add(start, end, r.slot, place);
    }

    private void known(ThreadRef t) {
        if (t.osId() >= 0 && t.name() != null && !t.name().isEmpty()) {
            namesByOsId.putIfAbsent(t.osId(), t.name());
        }
    }

    private String name(long tid, String comm) {
        String n = namesByOsId.get(tid);
        return n != null ? n : comm != null ? comm : "tid " + tid;
    }

    private String wakerName(OffCpuInterval i) {
        String n = name(i.wakerTid(), i.wakerComm());
        // An interrupt ran over the waker, which is a bystander: say so rather than blame it.
        return i.wakerContext() != null && !OffCpuReader.WAKER_RAN_AS_ITSELF.equals(i.wakerContext()) ? n + " [" + i.wakerContext() + "]" : n;
    }

    /** Attributes one interval to the request places it overlaps on its thread. */
    void add(OffCpuInterval i) {
        ThreadPlaces lane = lanes.get(i.tid());
        if (lane == null) {
            return;
        }
        long off = i.offEpochNanos();
        long on = i.onEpochNanos();
        int last = lane.lastStartAtOrBefore(on);
        int first = last;
        // Places of one thread do not overlap, so only the few that start before the end and reach
        // the start can match; capped in case a recording breaks that rule.
        while (first > 0 && last - first < 64 && lane.end(first - 1) >= off) {
            first--;
        }
        long coveredUntil = off;
        int lastHit = -1;
        long rqStart = i.runQueueStartEpochNanos();
        for (int k = Math.max(first, 0); k <= last && k >= 0; k++) {
            long from = Math.max(coveredUntil, lane.start(k));
            long to = Math.min(on, lane.end(k));
            if (to <= from) {
                continue;
            }
            RequestKernelFigures r = bySlot.get(lane.slots[k]);
            if (overlaps != null && r.ended) {
                overlaps.accept(new OffCpuOverlap(i, r.id, r.name == null ? "?" : r.name, placeNames.get(lane.places[k]),
                        name(i.tid(), i.comm()), i.wakerComm() != null ? wakerName(i) : null, from, to));
            }
            long runq = rqStart < 0 ? 0 : Math.max(0, to - Math.max(from, rqStart));
            boolean switchedOutHere = off >= lane.start(k) && off < lane.end(k) && from == off;
            r.addOffCpu(placeNames.get(lane.places[k]), to - from, runq, switchedOutHere, i.futexWait(), i.tid(),
                    i.futexEnterEpochNanos());
            coveredUntil = Math.max(coveredUntil, to);
            lastHit = k;
        }
        if (lastHit < 0) {
            return;
        }
        intervalsInRequests++;
        if (i.wakerComm() != null) {
            // The wakeup ends the interval, so it belongs to the last place the interval reached.
            if (lane.places[lastHit] != 0 && i.onEpochNanos() > lane.lastOn[lastHit]) {
                lane.lastOn[lastHit] = i.onEpochNanos();
                lane.lastWaker[lastHit] = enderIds.computeIfAbsent(wakerName(i), w -> {
                    enders.add(w);
                    return enders.size() - 1;
                });
            }
            bySlot.get(lane.slots[lastHit]).addWaker(wakerName(i), name(i.tid(), i.comm()),
                    placeNames.get(lane.places[lastHit]), i.futexWake(), i.offCpuNanos(), i.runQueueNanos(),
                    String.join(";", i.wakerStack()), i.stackWeight());
        }
    }

    private KernelReport build(Path bpfFile, long stackEvery, List<WakePair> threadNames, List<String> notes,
                               long lossWindows, long incompleteRequests) {
        lanes.forEach((tid, lane) -> {
            for (int k = 0; k < lane.size(); k++) {
                if (lane.lastWaker[k] >= 0) {
                    bySlot.get(lane.slots[k]).waitEnded(enders.get(lane.lastWaker[k]) + '\0' + name(tid, null) + '\0'
                            + placeNames.get(lane.places[k]));
                }
            }
        });
        Map<Long, KernelView> views = new HashMap<>();
        Map<String, List<KernelView>> byName = new TreeMap<>();
        for (RequestKernelFigures r : bySlot) {
            if (!r.ended) {
                continue;
            }
            KernelView v = r.view();
            if (v.contextSwitches() > 0 || v.offCpuNanos() > 0 || !v.wakers().isEmpty() || v.incomplete()) {
                views.put(r.id, v);
            }
            byName.computeIfAbsent(r.name == null ? "?" : r.name, n -> new ArrayList<>()).add(v);
        }
        List<KernelSummary> summary = new ArrayList<>();
        byName.forEach((name, vs) -> summary.add(summary(name, vs)));
        return new KernelReport(bpfFile.toString(), "events", intervals, intervalsInRequests, stackEvery, views, summary,
                threadNames, notes, lossWindows, incompleteRequests);
    }

    private static KernelSummary summary(String name, List<KernelView> vs) {
        double n = vs.size();
        Map<String, long[]> wakers = new HashMap<>();
        for (KernelView v : vs) {
            for (Waker w : v.wakers()) {
                long[] a = wakers.computeIfAbsent(w.waker() + '\0' + w.thread() + '\0' + w.during(), k -> new long[5]);
                a[0] += w.count();
                a[1] += w.futexWakes();
                a[2] += w.offCpuNanos();
                a[3] += w.runQueueNanos();
                a[4] += w.waitsEnded();
            }
        }
        List<Waker> top = new ArrayList<>();
        wakers.forEach((k, a) -> {
            String[] p = k.split("\0", -1);
            top.add(new Waker(p[0], p[1], p[2], a[0], a[1], a[4], a[2], a[3], List.of()));
        });
        top.sort(RequestKernelFigures.WAKER_ORDER);
        return new KernelSummary(name, vs.size(),
                vs.stream().mapToLong(KernelView::offCpuNanos).sum() / n,
                vs.stream().mapToLong(KernelView::runQueueNanos).sum() / n,
                vs.stream().mapToLong(KernelView::contextSwitches).sum() / n,
                vs.stream().mapToLong(KernelView::futexWaits).sum() / n,
                List.copyOf(top.subList(0, Math.min(top.size(), RequestKernelFigures.MAX_WAKERS))),
                vs.stream().filter(KernelView::incomplete).count());
    }
}
