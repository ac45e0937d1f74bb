package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.memory.DetailBudget;
import io.hopscope.analyzer.analysis.memory.RequestSpill;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.model.RequestsKept;
import io.hopscope.analyzer.model.Warmup;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Where finished requests go: the summary per name (an HdrHistogram each) and the requests the report
 * shows, a bounded top-N by the sort field (with a sample of the rest for {@code sample > 0}), or
 * every request for {@code top < 0} (spilled to a
 * temporary file past {@link #SPILL_AFTER_REQUESTS}, or as soon as the lists' budget is spent), all
 * filtered by the name glob, the trace id and the window of request starts. A request that leaves the selection
 * gives its lists' bytes back. A watch's selection ({@link #handingOver}) keeps nothing: each request
 * goes out as it finishes.
 */
final class Selection {

    // Past this many requests for --top all, they go to a temporary file instead of the heap.
    private static final int SPILL_AFTER_REQUESTS = 20_000;

    private final AnalysisOptions options;
    private final NameGlob glob;
    private final RequestWindow window;
    // Requests of the names asked for that started before or after the window: left out, counted.
    private long beforeWindow;
    private long afterWindow;
    private final Map<String, SummaryBuilder> summaries = new LinkedHashMap<>();
    private final Comparator<RequestInProgress> order;
    private final PriorityQueue<RequestInProgress> worst;
    // --warmup apart: the worst warm-up requests, on their own (null otherwise); --warmup exclude: how many were left out.
    private final PriorityQueue<RequestInProgress> worstWarmup;
    private long excludedWarmup;
    private final List<RequestInProgress> all;
    private RequestSpill spill;
    // With a sample: the requests the top-N let go whose id is a multiple of sampleEvery, by id. When
    // they outgrow the sample, sampleEvery doubles and drops half of them: which requests are kept
    // depends on their ids only, not on the order the file gives them in.
    private final TreeMap<Long, RequestInProgress> sampled;
    private long sampleEvery = 1;
    // Requests that went to the summary: the held ones and those left out of the detail.
    private long selected;
    // --top all: shown requests that had no event lists kept (counted as they come, the list may be spilled).
    private long allWithoutDetail;
    // A watch: where every selected request goes, with its lists; null otherwise.
    private final Consumer<Request> handOver;

    Selection(AnalysisOptions options, DetailBudget budget) {
        this(options, budget, null);
    }

    /**
     * The selection of a watch: every request the options select goes to {@code handOver} as it finishes,
     * with its event lists, and is forgotten (no summary, no top-N: they would grow for as long as the
     * watch runs).
     */
    static Selection handingOver(AnalysisOptions options, DetailBudget budget, Consumer<Request> handOver) {
        return new Selection(options, budget, handOver);
    }

    private Selection(AnalysisOptions options, DetailBudget budget, Consumer<Request> handOver) {
        this.handOver = handOver;
        this.options = options;
        this.glob = options.nameGlob() == null ? null : new NameGlob(options.nameGlob());
        this.window = options.window();
        this.order = options.sort().order();
        this.worst = options.top() > 0 ? new PriorityQueue<>(order.reversed()) : null;
        this.all = options.top() < 0 ? new ArrayList<>() : null;
        this.sampled = worst != null && options.sample() > 0 ? new TreeMap<>() : null;
        this.worstWarmup = options.warmupShown() > 0 ? new PriorityQueue<>(order.reversed()) : null;
        // Every request kept for the output holds its lists: once they fill the budget, they go to
        // the file, so that requests still in flight may keep theirs.
        budget.onFull(() -> {
            if (all != null && !all.isEmpty()) {
                startSpill();
            }
        });
    }

    /** Whether any request is shown at all ({@code --top 0} shows none: no event lists are needed). */
    boolean showsAny() {
        return worst != null || all != null || handOver != null;
    }

    /** Adds a finished request to its name's summary and, if it may be shown, to the selection. */
    void add(RequestInProgress r) {
        String name = r.name == null ? "?" : r.name;
        if (glob != null && !glob.matches(name) || otherTrace(r)) {
            r.dropDetail();
            return;
        }
        if (!window.contains(r.startEpochNanos)) {
            if (r.startEpochNanos < window.fromEpochNanos()) {
                beforeWindow++;
            } else {
                afterWindow++;
            }
            r.dropDetail();
            return;
        }
        if (r.warmup() && options.warmup() == Warmup.exclude) {
            excludedWarmup++;
            r.dropDetail();
            return;
        }
        if (handOver != null) {
            handOver.accept(r.toRequest(options.topSites()));
            r.dropDetail();
            return;
        }
        summaries.computeIfAbsent(name, SummaryBuilder::new).add(r);
        selected++;
        if (worst != null) {
            rank(r);
        } else if (all != null) {
            if (!r.detail) {
                allWithoutDetail++;
            }
            if (spill == null && all.size() >= SPILL_AFTER_REQUESTS) {
                startSpill();
            }
            if (spill != null) {
                spill(r);
            } else {
                all.add(r);
            }
        } else {
            r.dropDetail();
        }
    }

    // Into the top-N it belongs to: the warm-up one when kept apart, the steady one otherwise; what
    // falls out of it may still be one of the sample.
    private void rank(RequestInProgress r) {
        boolean warm = worstWarmup != null && r.warmup();
        PriorityQueue<RequestInProgress> queue = warm ? worstWarmup : worst;
        int size = warm ? options.warmupShown() : options.top();
        // A full queue's head is the least bad of the kept; one that comes after it would be added and
        // polled straight out again (the order is total: key, then id). Most requests are those, and the
        // add and poll cost as much as the rest of the summary. Only for keys final at the end: a
        // queue whose keys late events can change has no reliable head (see cannotBeShown).
        if (options.sort().finalAtEnd() && queue.size() >= size && order.compare(r, queue.peek()) > 0) {
            letGo(r);
            return;
        }
        queue.add(r);
        if (queue.size() > size) {
            letGo(queue.poll());
        }
    }

    // Out of the top-N: into the sample if its id is one of the sample's, else out of detail.
    private void letGo(RequestInProgress r) {
        if (!mayBeSampled(r)) {
            r.dropDetail();
            return;
        }
        sampled.put(r.id, r);
        while (sampled.size() > options.sample()) {
            sampleEvery *= 2;
            sampled.values().removeIf(s -> {
                if (mayBeSampled(s)) {
                    return false;
                }
                s.dropDetail();
                return true;
            });
        }
    }

    private boolean mayBeSampled(RequestInProgress r) {
        return sampled != null && Math.floorMod(r.id, sampleEvery) == 0;
    }

    private void startSpill() {
        if (spill == null) {
            spill = new RequestSpill();
        }
        all.forEach(this::spill);
        all.clear();
    }

    private void spill(RequestInProgress r) {
        spill.add(options.sort().key(r), r.toRequest(options.topSites()));
        r.dropDetail();
    }

    // A request already known never to be shown drops its event lists at its end, while they are still
    // young garbage: kept until it is finished, two flush points later, every request's lists were
    // promoted to the old generation, and collecting them was a fifth of the CPU time on big files.
    // Only for sort keys that are final at the request's end (duration, start): from then on, the
    // N-th worst request finished so far can only get worse.
    boolean cannotBeShown(RequestInProgress r) {
        if (leftOut(r)) {
            return true;
        }
        if (r.warmup() && options.warmup() == Warmup.exclude) {
            return true;
        }
        if (worst == null) {
            return all == null && handOver == null; // --top 0: none is shown
        }
        PriorityQueue<RequestInProgress> queue = worstWarmup != null && r.warmup() ? worstWarmup : worst;
        int size = queue == worst ? options.top() : options.warmupShown();
        return options.sort().finalAtEnd() && queue.size() >= size && order.compare(r, queue.peek()) > 0
                && !mayBeSampled(r);
    }

    /** Whether an ended request is outside what was asked for (another name, or started outside the window). */
    boolean leftOut(RequestInProgress r) {
        return glob != null && !glob.matches(r.name == null ? "?" : r.name) || otherTrace(r) || outsideWindow(r);
    }

    /** Whether --trace-id asks for another trace than the request's. */
    private boolean otherTrace(RequestInProgress r) {
        return options.traceId() != null && !options.traceId().equals(r.traceId);
    }

    /** Whether an ended request started outside the window: nothing of it is counted, however late its events. */
    boolean outsideWindow(RequestInProgress r) {
        return !window.contains(r.startEpochNanos);
    }

    /** The window the requests were taken from, with how many it left out. */
    RequestWindow window() {
        return window.isAll() ? window : window.withLeftOut(beforeWindow, afterWindow);
    }

    // For events of a request that come after it was finished (FinishedRequests).

    /** The summary a finished request of that name went to, or null (a name the glob leaves out). */
    SummaryBuilder summary(String name) {
        return summaries.get(name == null ? "?" : name);
    }

    /** The finished request {@code id} if the selection holds it in memory, or null (a linear search: late events are rare). */
    RequestInProgress held(long id) {
        Iterable<RequestInProgress> held = worst != null ? worst : all != null ? all : List.of();
        for (RequestInProgress r : held) {
            if (r.id == id) {
                return r;
            }
        }
        if (worstWarmup != null) {
            for (RequestInProgress r : worstWarmup) {
                if (r.id == id) {
                    return r;
                }
            }
        }
        return sampled != null ? sampled.get(id) : null;
    }

    /** Whether every request is shown ({@code --top all}): one not held is in the spill file. */
    boolean showsEveryRequest() {
        return all != null;
    }

    /** A held request's totals changed: the top-N's heap takes it out (its old place is stale) and back in. */
    void amended(RequestInProgress r) {
        // A late hopscope.AgentWork can make a steady request a warm-up one: it moves to that list.
        if (worst != null && (worst.remove(r) || worstWarmup != null && worstWarmup.remove(r))) {
            rank(r);
        }
    }

    /** Warm-up requests left out of every figure ({@code --warmup exclude}). */
    long excludedWarmup() {
        return excludedWarmup;
    }

    /** The worst warm-up requests in report order, when kept apart; empty otherwise. */
    List<Request> warmupRequests() {
        if (worstWarmup == null) {
            return List.of();
        }
        List<RequestInProgress> chosen = new ArrayList<>(worstWarmup);
        chosen.sort(order);
        List<Request> out = new ArrayList<>(chosen.size());
        chosen.forEach(r -> out.add(r.toRequest(options.topSites())));
        return out;
    }

    /** How many of the requests shown have totals but no event lists, and how many are shown. */
    long[] shownWithoutDetail() {
        if (worst != null) {
            long without = worst.stream().filter(r -> !r.detail).count()
                    + (sampled != null ? sampled.values().stream().filter(r -> !r.detail).count() : 0);
            return new long[] {without, worst.size() + (sampled != null ? sampled.size() : 0)};
        }
        if (all != null) {
            return new long[] {allWithoutDetail, spill != null ? spill.size() : all.size()};
        }
        return new long[] {0, 0};
    }

    /** Which requests {@link #requests} holds, and how many of the summary's it leaves out. */
    RequestsKept kept() {
        if (all != null) {
            return new RequestsKept(true, 0, options.sort().name(), 0, 0, 0);
        }
        int worstHeld = worst != null ? worst.size() : 0;
        int sampleHeld = sampled != null ? sampled.size() : 0;
        int warmupHeld = worstWarmup != null ? worstWarmup.size() : 0; // shown too, in their own list
        return new RequestsKept(false, worstHeld, options.sort().name(), sampled != null ? sampleEvery : 0, sampleHeld,
                selected - worstHeld - sampleHeld - warmupHeld);
    }

    /** The summary per name, most requests first. */
    List<NameSummary> summary() {
        List<NameSummary> summary = new ArrayList<>();
        summaries.values().forEach(s -> summary.add(s.build()));
        summary.sort(Comparator.comparingLong(NameSummary::count).reversed().thenComparing(NameSummary::name));
        return List.copyOf(summary);
    }

    // Requests are turned into records only when an output reads them (a view over the totals), so
    // that writing every request of a huge recording as JSON holds one record at a time.
    List<Request> requests() {
        if (spill != null) {
            return spill.finish();
        }
        List<RequestInProgress> chosen = new ArrayList<>(worst != null ? worst : all != null ? all : List.of());
        chosen.sort(order);
        if (sampled != null) {
            chosen.addAll(sampled.values()); // after the worst, by id
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
}
