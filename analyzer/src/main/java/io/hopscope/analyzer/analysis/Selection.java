package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Warmup;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Where finished requests go: the summary per name (an HdrHistogram each) and the requests the report
 * shows, a bounded top-N by the sort field, or every request for {@code top < 0} (spilled to a
 * temporary file past {@link #SPILL_AFTER_REQUESTS}, or as soon as the lists' budget is spent), all
 * filtered by the name glob. A request that leaves the selection gives its lists' bytes back.
 */
final class Selection {

    // Past this many requests for --top all, they go to a temporary file instead of the heap.
    private static final int SPILL_AFTER_REQUESTS = 20_000;

    private final AnalysisOptions options;
    private final NameGlob glob;
    private final Map<String, SummaryBuilder> summaries = new LinkedHashMap<>();
    private final Comparator<RequestAcc> order;
    private final PriorityQueue<RequestAcc> worst;
    // --warmup apart: the worst warm-up requests, on their own (null otherwise); --warmup exclude: how many were left out.
    private final PriorityQueue<RequestAcc> worstWarmup;
    private long excludedWarmup;
    private final List<RequestAcc> all;
    private RequestSpill spill;
    // --top all: shown requests that had no event lists kept (counted as they come, the list may be spilled).
    private long allWithoutDetail;

    Selection(AnalysisOptions options, DetailBudget budget) {
        this.options = options;
        this.glob = options.nameGlob() == null ? null : new NameGlob(options.nameGlob());
        this.order = options.sort().order();
        this.worst = options.top() > 0 ? new PriorityQueue<>(order.reversed()) : null;
        this.all = options.top() < 0 ? new ArrayList<>() : null;
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
        return worst != null || all != null;
    }

    /** Adds a finished request to its name's summary and, if it may be shown, to the selection. */
    void add(RequestAcc r) {
        String name = r.name == null ? "?" : r.name;
        if (glob != null && !glob.matches(name)) {
            r.dropDetail();
            return;
        }
        if (r.warmup() && options.warmup() == Warmup.exclude) {
            excludedWarmup++;
            r.dropDetail();
            return;
        }
        summaries.computeIfAbsent(name, SummaryBuilder::new).add(r);
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

    // Into the top-N it belongs to: the warm-up one when kept apart, the steady one otherwise.
    private void rank(RequestAcc r) {
        PriorityQueue<RequestAcc> queue = worstWarmup != null && r.warmup() ? worstWarmup : worst;
        queue.add(r);
        int size = queue == worst ? options.top() : options.warmupShown();
        if (queue.size() > size) {
            queue.poll().dropDetail();
        }
    }

    private void startSpill() {
        if (spill == null) {
            spill = new RequestSpill();
        }
        all.forEach(this::spill);
        all.clear();
    }

    private void spill(RequestAcc r) {
        spill.add(options.sort().key(r), r.toRequest(options.topSites()));
        r.dropDetail();
    }

    // A request already known never to be shown drops its event lists at its end, while they are still
    // young garbage: kept until it is finished, two flush points later, every request's lists were
    // promoted to the old generation, and collecting them was a fifth of the CPU time on big files.
    // Only for sort keys that are final at the request's end (duration, start): from then on, the
    // N-th worst request finished so far can only get worse.
    boolean cannotBeShown(RequestAcc r) {
        if (glob != null && !glob.matches(r.name == null ? "?" : r.name)) {
            return true;
        }
        if (r.warmup() && options.warmup() == Warmup.exclude) {
            return true;
        }
        if (worst == null) {
            return all == null; // --top 0: none is shown
        }
        PriorityQueue<RequestAcc> queue = worstWarmup != null && r.warmup() ? worstWarmup : worst;
        int size = queue == worst ? options.top() : options.warmupShown();
        return options.sort().finalAtEnd() && queue.size() >= size && order.compare(r, queue.peek()) > 0;
    }

    // For events of a request that come after it was finished (FinishedRequests).

    /** The summary a finished request of that name went to, or null (a name the glob leaves out). */
    SummaryBuilder summary(String name) {
        return summaries.get(name == null ? "?" : name);
    }

    /** The finished request {@code id} if the selection holds it in memory, or null (a linear search: late events are rare). */
    RequestAcc held(long id) {
        Iterable<RequestAcc> held = worst != null ? worst : all != null ? all : List.of();
        for (RequestAcc r : held) {
            if (r.id == id) {
                return r;
            }
        }
        if (worstWarmup != null) {
            for (RequestAcc r : worstWarmup) {
                if (r.id == id) {
                    return r;
                }
            }
        }
        return null;
    }

    /** Whether every request is shown ({@code --top all}): one not held is in the spill file. */
    boolean showsEveryRequest() {
        return all != null;
    }

    /** A held request's totals changed: the top-N's heap takes it out (its old place is stale) and back in. */
    void amended(RequestAcc r) {
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
        List<RequestAcc> chosen = new ArrayList<>(worstWarmup);
        chosen.sort(order);
        List<Request> out = new ArrayList<>(chosen.size());
        chosen.forEach(r -> out.add(r.toRequest(options.topSites())));
        return out;
    }

    /** How many of the requests shown have totals but no event lists, and how many are shown. */
    long[] shownWithoutDetail() {
        if (worst != null) {
            return new long[] {worst.stream().filter(r -> !r.detail).count(), worst.size()};
        }
        if (all != null) {
            return new long[] {allWithoutDetail, spill != null ? spill.size() : all.size()};
        }
        return new long[] {0, 0};
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
}
