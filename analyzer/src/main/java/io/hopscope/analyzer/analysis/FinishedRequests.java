package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.memory.FinishedIds;
import io.hopscope.analyzer.model.LateEvents;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The requests the single pass has finished, remembered so that an event of one that the file gives
 * later (each thread's buffer is written on its own schedule), however late, is added to it rather
 * than taken for a new request that never ends. {@link #target} gives the request to add the event to:
 * the request itself while the selection holds it, else a blank one that stands for it; {@link #settle}
 * then moves what the event added into its name's summary.
 *
 * <p>What a late event cannot change, and why: the request's duration and start come from its
 * hopscope.Request event alone, so its place in the latency histogram, the name's throughput window
 * and a duration or start sort key stand; GC time depends only on that span. A late segment is not
 * joined with JDK events (lock contention, allocation samples, pinning): those inside it came before
 * it in the file and were joined at the flush point after them, when its request had no segment there.
 * A request the top-N had already let go cannot come back, even if the late event would now rank it in.
 * A late segment is not in the index of an extra join's second pass unless the selection still holds
 * its request (only it knows its slot). Its first-segment thread (the start thread's fallback) stands.
 * A late server hand-over (hopscope.Hop with serverQueue) adds to its name's mean server queue and
 * count of requests queued, not to its server queue p99, which holds each request's time at its
 * finish, as the latency histogram holds its duration.
 */
final class FinishedRequests {

    // Per finished id, its name, whether it blocked on a non-blocking thread, whether its server handed
    // it over (each counted once per request in the summary, however many late events say so), and its
    // hops, for the ids
    // within this many of the highest finished one: 8 MB at most. On the samples no event came more than
    // two flush points (seconds) after its request's end, a few thousand ids at most; an id further back
    // than this is left out, counted.
    static final int MAX_WINDOW = 1 << 20;
    private static final int NAME_BITS = 20;
    // Names are few (a method and a route); URLs with ids in them as names need not repeat: past this
    // many, a finished request's name is not remembered (as RequestEvents stops interning).
    private static final int MAX_NAMES = 100_000;
    private static final long NO_NAME = (1L << NAME_BITS) - 1;
    private static final long NON_BLOCKING = 1L << NAME_BITS;
    // Started outside the report's window: its late events are not counted anywhere.
    private static final long OUTSIDE_WINDOW = 1L << (NAME_BITS + 1);
    private static final long SERVER_QUEUED = 1L << (NAME_BITS + 2);
    private static final int HOPS_SHIFT = NAME_BITS + 3;

    private final Selection selection;
    private final FinishedIds ids;
    private final int maxWindow;
    private long[] window;
    private long highest;
    private long lowest = Long.MAX_VALUE;
    // Ids below this lost their slot when the window grew (see grow).
    private long validFrom = Long.MIN_VALUE;
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> nameIndex = new HashMap<>();
    private long read;
    private long notInShownRequest;
    private long leftOut;
    // Of the event being added: the request's exact allocation before it (see settle).
    private long exactBytesBefore;

    FinishedRequests(Selection selection) {
        this(selection, new FinishedIds(), MAX_WINDOW);
    }

    /** Small bounds for tests. */
    FinishedRequests(Selection selection, FinishedIds ids, int maxWindow) {
        this.selection = selection;
        this.ids = ids;
        this.maxWindow = maxWindow;
        this.window = new long[Math.min(4096, maxWindow)];
    }

    /** Remembers a request being finished, after its totals are complete and before the selection takes it. */
    void finished(RequestInProgress r) {
        ids.add(r.id);
        lowest = Math.min(lowest, r.id);
        if (r.id > highest) {
            while (window.length < maxWindow && r.id - lowest >= window.length) {
                grow();
            }
            highest = r.id;
        }
        if (inWindow(r.id)) {
            window[slot(r.id)] = pack(nameIndex(r.name == null ? "?" : r.name), r.nonBlocking, r.serverQueueHops > 0,
                    r.hopCount) | (selection.outsideWindow(r) ? OUTSIDE_WINDOW : 0);
        }
    }

    /** Whether an event of {@code id}, which is not in flight, belongs to a request already finished. */
    boolean isFinished(long id) {
        return ids.contains(id) || ids.forgotten(id);
    }

    /**
     * The request a late event of {@code id} is to be added to, its totals taken out of its name's
     * summary until {@link #settle}; or null when it cannot be added (counted).
     */
    RequestInProgress target(long id) {
        RequestInProgress r = selection.held(id);
        if (r == null && ids.contains(id) && inWindow(id) && (window[slot(id)] & OUTSIDE_WINDOW) != 0) {
            return null; // a request the report leaves out: nothing to add it to
        }
        read++;
        if (r == null) {
            long name = ids.contains(id) && inWindow(id) ? window[slot(id)] & NO_NAME : NO_NAME;
            if (name == NO_NAME) {
                // Below the ranges dropped for memory (finished, or a request first seen this late: it
                // cannot be told), finished too long before for its name to be remembered, or one name
                // too many.
                leftOut++;
                return null;
            }
            long packed = window[slot(id)];
            r = new RequestInProgress(id, false);
            r.name = names.get((int) name);
            r.hopCount = (int) (packed >>> HOPS_SHIFT);
            r.nonBlocking = (packed & NON_BLOCKING) != 0;
            // Its hand-overs' count and time are not remembered: what matters is that it was queued
            // (counted once), and the late event's delay adds to the summary's sum either way.
            r.serverQueueHops = (packed & SERVER_QUEUED) != 0 ? 1 : 0;
            r.ended = true;
            r.finished = true;
            if (selection.showsEveryRequest() && selection.summary(r.name) != null) {
                notInShownRequest++; // written to the spill file already, with the totals it had
            }
        }
        SummaryBuilder summary = selection.summary(r.name);
        if (summary != null) {
            summary.addSums(r, -1);
        }
        exactBytesBefore = r.allocatedBytes - r.estimatedAllocatedBytes;
        return r;
    }

    /**
     * The late event has been added to {@code r} (from {@link #target}): its totals go back into its
     * name's summary, and the top-N puts it back in its place. Returns the exact allocation it added.
     */
    long settle(RequestInProgress r) {
        r.settleVirtualAllocation();
        SummaryBuilder summary = selection.summary(r.name);
        if (summary != null) {
            summary.addSums(r, 1);
        }
        selection.amended(r);
        if (inWindow(r.id)) {
            window[slot(r.id)] = pack(window[slot(r.id)] & NO_NAME, r.nonBlocking, r.serverQueueHops > 0, r.hopCount)
                    | (window[slot(r.id)] & OUTSIDE_WINDOW);
        }
        return r.allocatedBytes - r.estimatedAllocatedBytes - exactBytesBefore;
    }

    LateEvents counts() {
        return new LateEvents(read, notInShownRequest, leftOut);
    }

    private boolean inWindow(long id) {
        return id >= validFrom && id > highest - window.length && id <= highest;
    }

    // A slot holds the one id of the window with its low bits; an id finished after a higher one was
    // written only while still in the window, so a slot never holds an older id's figures for a newer id.
    private int slot(long id) {
        return (int) (id & (window.length - 1));
    }

    // Called before the highest id moves up; the window covers the finished ids from the lowest one
    // up to its size, so a slot is lost only past that, or when a lower id than any before finishes.
    private void grow() {
        validFrom = Math.max(validFrom, highest - window.length + 1);
        long[] bigger = new long[window.length * 2];
        for (long id = Math.max(1, highest - window.length + 1); id <= highest; id++) {
            bigger[(int) (id & (bigger.length - 1))] = window[slot(id)];
        }
        window = bigger;
    }

    private long nameIndex(String name) {
        if (name == null) {
            return NO_NAME;
        }
        Integer i = nameIndex.get(name);
        if (i == null) {
            if (names.size() >= MAX_NAMES) {
                return NO_NAME;
            }
            i = names.size();
            names.add(name);
            nameIndex.put(name, i);
        }
        return i;
    }

    private static long pack(long name, boolean nonBlocking, boolean serverQueued, int hops) {
        return name | (nonBlocking ? NON_BLOCKING : 0) | (serverQueued ? SERVER_QUEUED : 0) | (long) hops << HOPS_SHIFT;
    }
}
