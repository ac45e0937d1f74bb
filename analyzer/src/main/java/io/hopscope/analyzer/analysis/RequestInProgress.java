package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.analysis.memory.DetailBudget;
import io.hopscope.analyzer.model.AgentWork;
import io.hopscope.analyzer.model.Allocation;
import io.hopscope.analyzer.model.CarrierUse;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.GcTime;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.Hops;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.ServerQueue;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.Spans;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.model.Waits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Mutable per-request totals while a recording is read, from its first event until the analyzer
 * finishes it (well past its end) and hands it to the summary and the selection; turned into an
 * immutable {@link Request} only when an output reads it. Totals are always exact; the event lists
 * are kept while they fit in the {@link DetailBudget} ({@code detail} off otherwise).
 */
final class RequestInProgress {

    final long id;
    /** Whether it keeps its event lists; turned off for good by {@link #dropDetail()}. */
    boolean detail;
    // The budget its lists are charged to, and the bytes charged so far (given back when they go).
    private final DetailBudget budget;
    private long detailBytes;

    boolean ended;
    /** Flush points read before its hopscope.Request event; it is finished two flush points later. */
    long endedAtFlush;
    boolean finished;
    /** Earliest start of its events read so far: GC pauses after it must be kept for it. */
    long firstSeenNanos = Long.MAX_VALUE;
    String name;
    String boundary;
    String url;
    String outcome;
    String error;
    int statusCode = -1;
    /** server, client or internal (RequestKinds), or null: a recording from before the field. */
    String kind;
    /** The W3C trace context the request began in (well formed, else null). */
    String traceId;
    String spanId;
    /** The Request event's startThread, or null: the agent leaves it out when the request ended where it started. */
    ThreadRef startThread;
    /** The thread that committed the Request event. */
    ThreadRef endThread;
    /**
     * The thread of the request's earliest segment, which begins with the request on its start thread:
     * the start thread when the event has none (JFR also writes null for a thread that had terminated).
     */
    ThreadRef firstSegmentThread;
    long firstSegmentStart = Long.MAX_VALUE;
    long startEpochNanos;
    long durationNanos;

    // Each part of the request (Hops, Waits, Allocation...) has its totals below, made into its record by a
    // method of its own at toRequest. What nearly every request has is fields of this one object, not an
    // object per part: there can be millions of requests, so per-request overhead is what bounds memory;
    // what few have (spans, sites, blind spots, agent work) is an object made at its first event.

    // Small arrays rather than maps (as in PolicyTimes): a request touches a few threads.
    ThreadRef[] threadRefs;
    long[] threadFigures; // per thread: segments, nanos, bytes
    int threadCount;
    List<Segment> segments;

    // Hops (hops()).
    int hopCount;
    int handoffHops;
    long queueDelayNanos;
    int wakeHops;
    long wakeLatencyNanos;
    int returnHops;
    long returnDelayNanos;
    List<Hop> hopList;
    // ServerQueue: a server's hand-overs of it to its request thread, apart from every hop figure above.
    int serverQueueHops;
    long serverQueueNanos;

    // Waits (waits()).
    long blockedNanos;
    boolean nonBlocking;
    List<Wait> waits;

    // Spans (spans()): its time per pipeline policy (hopscope.Span), made at its first span.
    private PolicyTimes policies;
    List<Span> spans;

    // Allocation (allocation()).
    long allocatedBytes;
    /** The part of allocatedBytes estimated from allocation samples (see addAllocationSample). */
    long estimatedAllocatedBytes;
    /** Bit t: thread t's segments had no allocation counter (-1: a virtual thread on JDK 21-25). */
    private long threadsWithoutCounter;
    // Pairs of a virtual thread's id and its exact bytes, until settleVirtualAllocation.
    private long[] exactVirtual;
    private int exactVirtualCount;

    // LockContention (lock()).
    long lockCount;
    long lockNanos;
    // Where its lock contention and its sampled allocation happened, made at the first of either.
    private Sites sites;

    // GcTime (gc()).
    long gcNanos;
    List<GcPause> gcPauses;

    // CarrierUse (carriers()): the virtual threads' carriers (hopscope.Mounts) and their pinned time
    // (jdk.VirtualThreadPinned).
    private int virtualThreads;
    int mounts;
    long mountWaitNanos;
    private long maxMountWaitNanos;
    private long mountedNanos;
    private List<String> carrierNames;
    private int pinnedCount;
    long pinnedNanos;

    // Unexplained: its parks and monitor waits inside its segments and what explains them (null until it
    // has either).
    private BlindSpots blind;
    // The agent's own work on its threads, made at the first of it.
    AgentWorkTotals agent;


    /**
     * The agent's package (its shaded Byte Buddy too): an allocation sample whose stack passes through
     * it is the agent's, given as this frame by the reader ({@link JdkEventAttribution}).
     */
    static final String AGENT_PACKAGE = "io.hopscope.agent.";

    /** A request whose lists, if {@code detail}, are not bounded (for tests). */
    RequestInProgress(long id, boolean detail) {
        this(id, detail ? new DetailBudget(Long.MAX_VALUE) : null);
    }

    /** A request that keeps lists if {@code budget} (null: none) admits it now. */
    RequestInProgress(long id, DetailBudget budget) {
        this.id = id;
        this.detail = budget != null && budget.admit();
        this.budget = detail ? budget : null;
        if (detail) {
            // Charged as if its lists were made; each is made at its first entry, since many requests
            // have no wait or span: four lists made for each of millions of requests were garbage.
            detailBytes = DetailBudget.LISTS_BYTES;
        }
    }

    /**
     * Forgets the event lists of a request that can no longer be shown, or leaves memory, or outgrew
     * the budget; its totals stay exact.
     */
    void dropDetail() {
        if (budget != null) {
            budget.release(detailBytes);
            detailBytes = 0;
        }
        detail = false;
        segments = null;
        hopList = null;
        waits = null;
        spans = null;
        gcPauses = null;
        carrierNames = null;
    }

    void addSegment(Segment s) {
        if (s.startEpochNanos() < firstSegmentStart) {
            firstSegmentStart = s.startEpochNanos();
            firstSegmentThread = s.thread();
        }
        int t = threadIndex(s.thread());
        threadFigures[3 * t]++;
        threadFigures[3 * t + 1] += s.durationNanos();
        if (s.allocatedBytes() < 0) {
            threadsWithoutCounter |= t < 64 ? 1L << t : 0;
        } else {
            threadFigures[3 * t + 2] += s.allocatedBytes();
            allocatedBytes += s.allocatedBytes();
        }
        if (detail && keeps(DetailBudget.SEGMENT_BYTES)) {
            if (segments == null) {
                segments = new ArrayList<>(3);
            }
            segments.add(s);
        }
    }

    void addHop(Hop h) {
        long delay = Math.max(0, h.delayNanos());
        if (h.serverQueue()) {
            // The server's queue, not a handoff of the application's: its own figure, so that the
            // queue delay and hop counts stay those of the application's code.
            serverQueueHops++;
            serverQueueNanos += delay;
            if (detail && keeps(DetailBudget.HOP_BYTES)) {
                addToHopList(h);
            }
            return;
        }
        hopCount++;
        if ("wake".equals(h.kind())) {
            wakeHops++;
            wakeLatencyNanos += delay;
        } else if ("return".equals(h.kind())) {
            returnHops++;
            returnDelayNanos += delay;
        } else {
            handoffHops++;
            queueDelayNanos += delay;
        }
        if (detail && keeps(DetailBudget.HOP_BYTES)) {
            addToHopList(h);
        }
    }

    private void addToHopList(Hop h) {
        if (hopList == null) {
            hopList = new ArrayList<>(3);
        }
        hopList.add(h);
    }

    void addWait(Wait w) {
        blockedNanos += w.durationNanos();
        nonBlocking |= w.nonBlockingThread();
        if (detail && keeps(DetailBudget.WAIT_BYTES)) {
            if (waits == null) {
                waits = new ArrayList<>(1);
            }
            waits.add(w);
        }
    }

    void addSpan(Span s) {
        if (policies == null) {
            policies = new PolicyTimes();
        }
        policies.add(s);
        if (detail && keeps(DetailBudget.SPAN_BYTES)) {
            if (spans == null) {
                spans = new ArrayList<>(2);
            }
            spans.add(s);
        }
    }

    // Charges one more list element to the budget; when it does not fit, the request drops its lists.
    private boolean keeps(long bytes) {
        if (budget.grow(bytes)) {
            detailBytes += bytes;
            return true;
        }
        dropDetail();
        return false;
    }

    private int threadIndex(ThreadRef t) {
        for (int i = 0; i < threadCount; i++) {
            if (threadRefs[i] == t || threadRefs[i].equals(t)) {
                return i;
            }
        }
        if (threadRefs == null || threadCount == threadRefs.length) {
            int n = threadRefs == null ? 2 : threadCount * 2;
            threadRefs = threadRefs == null ? new ThreadRef[n] : Arrays.copyOf(threadRefs, n);
            threadFigures = threadFigures == null ? new long[3 * n] : Arrays.copyOf(threadFigures, 3 * n);
        }
        threadRefs[threadCount] = t;
        return threadCount++;
    }


    /**
     * The agent worked on {@code thread} during one of its segments: the segment's counters left that
     * out already; its time comes off the thread's time here.
     */
    void addAgentWork(ThreadRef thread, int classes, int transformed, long nanos, long cpuNanos, long bytes) {
        agent().add(classes, transformed, nanos, cpuNanos, bytes);
        if (thread != null && nanos > 0) {
            threadFigures[3 * threadIndex(thread) + 1] -= nanos;
        }
    }

    /** Whether its threads loaded classes while they worked on it. */
    boolean warmup() {
        return agent != null && agent.classes > 0;
    }

    private AgentWorkTotals agent() {
        if (agent == null) {
            agent = new AgentWorkTotals();
        }
        return agent;
    }

    AgentWork agentWork() {
        return agent == null ? AgentWork.NONE : agent.toAgentWork();
    }

    /** Adds a contention event clipped to the request ({@code nanos}); the longest one's stack is kept. */
    void addLock(String kind, String className, long nanos, long eventNanos, Supplier<String> stack) {
        lockCount++;
        lockNanos += nanos;
        sites().addLock(kind, className, nanos, eventNanos, stack);
    }

    /**
     * An allocation sample on one of the request's threads in one of its segments. On a thread whose
     * segments had no allocation counter, its weight is that thread's allocation, estimated.
     */
    void addAllocationSample(String frame, String objectClass, long weightBytes, long javaThreadId) {
        if (frame.startsWith(AGENT_PACKAGE)) {
            agent().sampledBytes += weightBytes;
            return;
        }
        if (threadsWithoutCounter != 0) {
            for (int t = 0; t < Math.min(64, threadRefs.length) && threadRefs[t] != null; t++) {
                if (threadRefs[t].javaId() == javaThreadId && (threadsWithoutCounter & 1L << t) != 0) {
                    threadFigures[3 * t + 2] += weightBytes;
                    allocatedBytes += weightBytes;
                    estimatedAllocatedBytes += weightBytes;
                    break;
                }
            }
        }
        sites().addAllocation(frame, objectClass, weightBytes);
    }

    private Sites sites() {
        if (sites == null) {
            sites = new Sites();
        }
        return sites;
    }

    void addGcPause(GcPause p, long overlapNanos) {
        gcNanos += overlapNanos;
        if (detail && keeps(DetailBudget.GC_PAUSE_BYTES)) {
            if (gcPauses == null) {
                gcPauses = new ArrayList<>(2);
            }
            gcPauses.add(p);
        }
    }

    /** One virtual thread's runs on carriers while it worked on this request (one hopscope.Mounts). */
    void addMounts(int count, long waitNanos, long maxWaitNanos, long mountedNanos, String carriers) {
        virtualThreads++;
        mounts += count;
        mountWaitNanos += Math.max(0, waitNanos);
        maxMountWaitNanos = Math.max(maxMountWaitNanos, maxWaitNanos);
        this.mountedNanos += Math.max(0, mountedNanos);
        if (!detail || carriers == null || carriers.isEmpty()) {
            return;
        }
        if (carrierNames == null) {
            carrierNames = new ArrayList<>(2);
        }
        for (String name : carriers.split(", ")) {
            // "+N": the agent kept 8 names; those beyond are not named.
            if (!name.startsWith("+") && carrierNames.size() < CarrierUse.MAX_NAMES && !carrierNames.contains(name)) {
                if (!keeps(DetailBudget.CARRIER_NAME_BYTES)) {
                    return;
                }
                carrierNames.add(name);
            }
        }
    }

    /** Virtual thread javaThreadId allocated this much in the request, measured on its carriers (hopscope.Mounts). */
    void addExactVirtualAllocation(long javaThreadId, long bytes) {
        if (exactVirtual == null) {
            exactVirtual = new long[4];
        } else if (exactVirtualCount * 2 == exactVirtual.length) {
            exactVirtual = Arrays.copyOf(exactVirtual, exactVirtual.length * 2);
        }
        exactVirtual[2 * exactVirtualCount] = javaThreadId;
        exactVirtual[2 * exactVirtualCount + 1] = bytes;
        exactVirtualCount++;
    }

    /**
     * When the request is finished: a virtual thread whose allocation its carriers measured gets those
     * exact bytes in place of the estimate from allocation samples.
     */
    void settleVirtualAllocation() {
        for (int i = 0; i < exactVirtualCount; i++) {
            long id = exactVirtual[2 * i];
            long bytes = exactVirtual[2 * i + 1];
            int t = 0;
            while (t < threadCount && threadRefs[t].javaId() != id) {
                t++;
            }
            if (t == threadCount) {
                allocatedBytes += bytes; // it worked on the request without a segment of its own
            } else if (t < 64 && (threadsWithoutCounter & 1L << t) != 0) {
                long estimate = threadFigures[3 * t + 2];
                allocatedBytes += bytes - estimate;
                estimatedAllocatedBytes -= estimate;
                threadFigures[3 * t + 2] = bytes;
                threadsWithoutCounter &= ~(1L << t);
            }
        }
        exactVirtualCount = 0;
    }

    /** A virtual thread of this request was pinned to its carrier for overlapNanos of its segments. */
    void addPinned(long overlapNanos) {
        pinnedCount++;
        pinnedNanos += overlapNanos;
    }

    private CarrierUse carriers() {
        if (virtualThreads == 0 && pinnedCount == 0) {
            return CarrierUse.NONE;
        }
        List<String> names = carrierNames == null ? List.of() : List.copyOf(carrierNames);
        return new CarrierUse(virtualThreads, mounts, names, mountWaitNanos, maxMountWaitNanos, mountedNanos,
                pinnedCount, pinnedNanos);
    }

    BlindSpots blind() {
        if (blind == null) {
            blind = new BlindSpots();
        }
        return blind;
    }

    /** Settles its blind spots (when it is finished: every wait and hop of it has been read). */
    void settleBlindSpots() {
        if (blind != null) {
            blind.finish();
        }
    }

    /** Its unexplained parked and monitor time, settled (0 before). */
    long unexplainedNanos() {
        return blind == null ? 0 : blind.nanos;
    }

    long endEpochNanos() {
        return startEpochNanos + durationNanos;
    }

    Request toRequest(int topSites) {
        List<ThreadTime> threadTimes = new ArrayList<>(threadCount);
        for (int i = 0; i < threadCount; i++) {
            threadTimes.add(new ThreadTime(threadRefs[i], (int) threadFigures[3 * i], threadFigures[3 * i + 1],
                    threadFigures[3 * i + 2]));
        }
        ThreadRef started = startThread != null ? startThread : firstSegmentThread != null ? firstSegmentThread : endThread;
        if (threadTimes.isEmpty() && started != null) {
            threadTimes.add(new ThreadTime(started, 0, 0, 0));
        }
        return new Request(id, name, kind, boundary, url, outcome, error, statusCode, traceId, spanId, started,
                startEpochNanos, durationNanos, List.copyOf(threadTimes),
                detail ? sorted(segments, Comparator.comparingLong(Segment::startEpochNanos)) : List.of(),
                hops(), serverQueue(), waits(), spans(), allocation(topSites), lock(topSites), gc(), carriers(),
                blind == null ? Unexplained.NONE : blind.toUnexplained(topSites), agentWork(), detail);
    }

    // One part of the request per figure, each from its totals and, with detail, its list.

    private Hops hops() {
        return new Hops(hopCount, handoffHops, queueDelayNanos, wakeHops, wakeLatencyNanos, returnHops,
                returnDelayNanos, detail ? sorted(hopList, Comparator.comparingLong(Hop::arrivalEpochNanos)) : List.of());
    }

    private ServerQueue serverQueue() {
        return serverQueueHops == 0 && serverQueueNanos == 0 ? ServerQueue.NONE
                : new ServerQueue(serverQueueHops, serverQueueNanos);
    }

    private Waits waits() {
        return new Waits(blockedNanos, nonBlocking,
                detail ? sorted(waits, Comparator.comparingLong(Wait::startEpochNanos)) : List.of());
    }

    private Spans spans() {
        return new Spans(policies == null ? List.of() : policies.toList(),
                detail ? sorted(spans, Comparator.comparingLong(Span::startEpochNanos)) : List.of());
    }

    private Allocation allocation(int topSites) {
        return new Allocation(allocatedBytes, estimatedAllocatedBytes,
                sites == null ? List.of() : sites.allocations(topSites));
    }

    private LockContention lock(int topSites) {
        return lockCount == 0 ? LockContention.NONE
                : new LockContention(lockCount, lockNanos, sites == null ? List.of() : sites.locks(topSites));
    }

    private GcTime gc() {
        return new GcTime(gcNanos, gcPauses == null ? List.of() : List.copyOf(gcPauses));
    }

    // A list never made (no entry) is empty.
    private static <T> List<T> sorted(List<T> list, Comparator<T> order) {
        if (list == null) {
            return List.of();
        }
        List<T> copy = new ArrayList<>(list);
        copy.sort(order);
        return List.copyOf(copy);
    }
}
