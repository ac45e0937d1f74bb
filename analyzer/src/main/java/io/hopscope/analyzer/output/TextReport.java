package io.hopscope.analyzer.output;

import io.hopscope.analyzer.model.AgentWork;
import io.hopscope.analyzer.model.Allocation;
import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.Hops;
import io.hopscope.analyzer.model.LateEvents;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.CarrierUse;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.RequestKinds;
import io.hopscope.analyzer.model.RequestsKept;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Spans;
import io.hopscope.analyzer.model.ServerQueue;
import io.hopscope.analyzer.model.ServerQueueSummary;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.UnexplainedSite;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.model.Warmup;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code report --format text}: for a terminal. The summary table first, then each selected request
 * with its threads as ASCII lanes ({@code =} working in a segment, {@code .} blocked in a wait, a
 * digit where hop N arrived) and the numbered hop list under it. A server request says so, with its
 * time in its server's queue first of its figures and its hand-over marked in the hop list.
 */
public final class TextReport {

    static final int LANE_COLUMNS = 60;

    private TextReport() {
    }

    public static void write(Report report, String sortedBy, PrintWriter out) {
        write(report, sortedBy, null, out);
    }

    /** With {@code kernel} (from {@code --bpf}, may be null): a kernel summary, and a kernel part per request. */
    public static void write(Report report, String sortedBy, KernelReport kernel, PrintWriter out) {
        RecordingInfo info = report.recording();
        out.println("hopscope report: " + info.file());
        writeRecording(info, out);
        String kinds = kinds(report);
        if (kinds != null) {
            out.println(kinds);
        }
        if (!report.window().isAll()) {
            out.println(WindowText.line(report.window()));
        }
        if (report.agentWork().any()) {
            out.println("agent: " + agentWork(report.agentWork()) + " on the requests' threads, in no figure below");
        }
        out.println();
        writeSummary(report.summary(), out);
        if (kernel != null) {
            out.println();
            KernelText.writeSummary(kernel, report.summary(), out);
        }
        boolean apart = report.warmup() == Warmup.apart && report.warmupRequestCount() > 0;
        // A report of every request (--top all) ranked them all in one list: with --warmup apart, the warm-up
        // ones among its worst go to their own list (the worst Warmup.SHOWN of them), as in the HTML report.
        List<Request> warmups = new ArrayList<>(report.warmupRequests());
        List<Request> steady = new ArrayList<>();
        List<Request> sample = new ArrayList<>();
        RequestsKept kept = report.kept();
        int worst = kept.sampled() > 0 ? kept.worst() : Integer.MAX_VALUE;
        int i = 0;
        for (Request r : report.requests()) {
            if (i++ >= worst) {
                sample.add(r);
            } else if (apart && r.warmup()) {
                if (warmups.size() < Warmup.SHOWN) {
                    warmups.add(r);
                }
            } else {
                steady.add(r);
            }
        }
        if (!steady.isEmpty() || !sample.isEmpty()) {
            out.println();
            out.println("worst " + steady.size() + (apart ? " steady" : "") + " request(s) by " + sortedBy
                    + (apart ? " (warm-up requests apart, below; --warmup include ranks them too):" : ":"));
            int rank = writeRequests(steady, 1, kernel, out);
            if (!sample.isEmpty()) {
                out.println();
                out.println("a sample of the rest, " + KeptText.every(kept.sampleEvery()) + " request by id ("
                        + kept.sampled() + "):");
            }
            writeRequests(sample, rank, kernel, out);
        }
        if (!warmups.isEmpty()) {
            out.println();
            out.println("worst " + warmups.size() + " of " + report.warmupRequestCount()
                    + " warm-up request(s) by " + sortedBy + " (their threads loaded classes):");
            writeRequests(warmups, 1, kernel, out);
        }
        out.flush();
    }

    // Each request ranked from rank on, with its kernel view when there is one; returns the next rank.
    private static int writeRequests(List<Request> requests, int rank, KernelReport kernel, PrintWriter out) {
        for (Request r : requests) {
            out.println();
            writeRequest(rank++, r, out);
            if (kernel != null) {
                KernelText.writeRequest(kernel, r, out);
            }
        }
        return rank;
    }

    static void writeRecording(RecordingInfo i, PrintWriter out) {
        out.println("recording: " + (i.startEpochNanos() > 0 ? Units.epoch(i.startEpochNanos()) : "?")
                + ", " + Units.nanos(i.endEpochNanos() - i.startEpochNanos()) + ", "
                + i.hopscopeEvents() + " hopscope events, " + i.jdkEvents() + " jdk events read"
                + (i.agentVersion() != null ? ", agent " + i.agentVersion() : ""));
        out.println("gc: " + i.gcCount() + " collection(s), " + Units.nanos(i.gcPauseNanos()) + " paused"
                + (i.peakThreadCount() >= 0 ? "; peak threads " + i.peakThreadCount() : ""));
        StringBuilder alloc = new StringBuilder("allocation: " + Units.bytes(i.requestsAllocatedBytes())
                + " exact inside requests");
        if (i.sampledAllocationBytes() > 0) {
            alloc.append("; outside requests ").append(Units.percent(i.allocationOutsideRequestsShare()))
                    .append(" of the sampled ").append(Units.bytes(i.sampledAllocationBytes()))
                    .append(" (estimated from jdk.ObjectAllocationSample weights)");
        }
        out.println(alloc);
        LateEvents late = i.lateEvents();
        if (late.count() > 0) {
            out.println("late events: " + late.count() + " read after their request was finished, added to it and its"
                    + " name's summary" + (late.notInShownRequest() > 0 ? "; " + late.notInShownRequest()
                    + " to the summary only" : "") + (late.leftOut() > 0 ? "; " + late.leftOut() + " left out" : ""));
        }
    }

    /**
     * "requests: 130 (100 server, 30 client)": the requests in the figures below by kind, when a server
     * received some (else every request is a call the application made, as before there were server
     * requests, and the line would say nothing new); null otherwise.
     */
    static String kinds(Report report) {
        RequestKinds k = report.kinds();
        if (k.server() == 0) {
            return null;
        }
        long all = report.summary().stream().mapToLong(NameSummary::count).sum();
        StringBuilder sb = new StringBuilder();
        addKind(sb, k.server(), "server");
        addKind(sb, k.client(), "client");
        addKind(sb, k.internal(), "internal");
        addKind(sb, all - k.server() - k.client() - k.internal(), "of no kind");
        return "requests: " + all + " (" + sb + ")";
    }

    static void writeSummary(List<NameSummary> summary, PrintWriter out) {
        if (summary.isEmpty()) {
            out.println("no requests.");
            return;
        }
        int nameWidth = Math.max(4, Math.min(40, summary.stream().mapToInt(s -> s.name().length()).max().orElse(4)));
        String fmt = "%-" + nameWidth + "s %7s %8s %10s %10s %10s %10s %9s %10s %10s %10s %10s %6s%n";
        out.printf(Locale.ROOT, fmt, "name", "count", "req/s", "p50", "p90", "p99", "max", "hops",
                "queue", "wake", "alloc/req", "lock/req", "nb");
        for (NameSummary s : summary) {
            out.printf(Locale.ROOT, fmt, Units.fit(s.name(), nameWidth), s.count(),
                    String.format(Locale.ROOT, "%.1f", s.throughputPerSecond()),
                    Units.nanos(s.p50Nanos()), Units.nanos(s.p90Nanos()), Units.nanos(s.p99Nanos()),
                    Units.nanos(s.maxNanos()), String.format(Locale.ROOT, "%.1f/%d", s.meanHops(), s.maxHops()),
                    Units.nanos(s.meanQueueDelayNanos()), Units.nanos(s.meanWakeLatencyNanos()),
                    Units.bytes(s.meanAllocatedBytes()), Units.nanos(s.meanLockNanos()),
                    Units.percent(s.nonBlockingShare()));
        }
        out.println("(hops: mean/max per request; queue, wake: mean queue delay and wake latency per request; "
                + "nb: share of requests that blocked on a non-blocking thread)");
        for (NameSummary s : summary) {
            out.println(explained(s));
            if (s.warmupRequests() > 0) {
                out.printf(Locale.ROOT, "warm-up of %s: %d of the %d request(s) (their threads loaded classes),"
                        + " in the figures above%n", s.name(), s.warmupRequests(), s.count());
            }
            if (s.agentWork().any()) {
                out.printf(Locale.ROOT, "agent in %s: %s, not counted above%n", s.name(), agentWork(s.agentWork()));
            }
        }
        for (NameSummary s : summary) {
            if (s.server()) {
                out.println(serverQueue(s));
            }
        }
        for (NameSummary s : summary) {
            if (s.meanMounts() > 0 || s.meanPinnedNanos() > 0) {
                out.printf(Locale.ROOT, "virtual threads of %s: %.1f mount(s), mount wait %s, pinned %s per request%n",
                        s.name(), s.meanMounts(), Units.nanos(s.meanMountWaitNanos()), Units.nanos(s.meanPinnedNanos()));
            }
        }
    }

    /**
     * "explained: NAME 98.5% of request time (unexplained 150.0 us/request, in 10 of 120 requests)": the
     * share of its requests' time hopscope explains, and the parked and monitor time it could not.
     */
    static String explained(NameSummary s) {
        return "explained: " + s.name() + " " + Units.percent(s.explainedShare()) + " of request time"
                + (s.unexplainedRequests() == 0 ? "" : " (unexplained " + Units.nanos(s.meanUnexplainedNanos())
                + "/request, in " + s.unexplainedRequests() + " of " + s.count() + " requests)");
    }

    /**
     * "server queue of GET /orders/{id}: mean 1.25 ms, p99 2.50 ms per request, 1 of 2 request(s) queued;
     * its handler's own: 1.0 hop(s), queue delay 200.0 us": the time its requests waited in their server's
     * queue, apart from the table's hops and queue delay, which are the application's.
     */
    static String serverQueue(NameSummary s) {
        ServerQueueSummary q = s.serverQueue();
        return "server queue of " + s.name() + ": mean " + Units.nanos(q.meanNanos()) + ", p99 "
                + Units.nanos(q.p99Nanos()) + " per request, " + q.queued() + " of " + s.count()
                + " request(s) queued; its handler's own: " + String.format(Locale.ROOT, "%.1f", s.meanHops())
                + " hop(s), queue delay " + Units.nanos(s.meanQueueDelayNanos());
    }

    /**
     * "unexplained: 1.80 ms parked in com.example.Foo.await on ...ConditionObject, waker not seen": where a
     * request's threads parked or waited on a monitor with no hop or wait of it to say why, the sites that
     * took most first; "none" when the JDK's events show no such time.
     */
    static List<String> unexplained(Request r) {
        Unexplained u = r.unexplained();
        if (u.count() == 0) {
            return List.of("unexplained: none (no park or monitor wait outside its hops and waits)");
        }
        String explains = "hopscope explains " + Units.percent(u.explainedShare(r.durationNanos())) + " of its time";
        if (u.top().size() == 1 && u.top().get(0).nanos() == u.nanos()) {
            return List.of("unexplained: " + site(u.top().get(0)) + " (" + explains + ")");
        }
        List<String> lines = new ArrayList<>();
        lines.add("unexplained: " + Units.nanos(u.nanos()) + " in " + u.count() + " park(s) and monitor wait(s), " + explains);
        for (UnexplainedSite s : u.top()) {
            lines.add("  " + site(s));
        }
        return lines;
    }

    private static String site(UnexplainedSite s) {
        return Units.nanos(s.nanos()) + " " + s.doing() + ("?".equals(s.frame()) ? "" : " in " + s.frame())
                + (s.blocker() == null ? "" : " on " + s.blocker()) + (s.count() > 1 ? " (" + s.count() + "x)" : "")
                + ", " + waker(s);
    }

    private static String waker(UnexplainedSite s) {
        if ("monitorEnter".equals(s.kind())) {
            return s.waker() == null ? "holder not seen" : "held by " + s.waker().label();
        }
        return s.waker() == null ? "waker not seen" : "woken by " + s.waker().label();
    }

    /** " (1 handoff, 1 return)": a request's hops by kind, or nothing without hops. */
    static String hopKinds(Hops h) {
        if (h.count() == 0) {
            return "";
        }
        StringBuilder kinds = new StringBuilder();
        addKind(kinds, h.handoffs(), "handoff");
        addKind(kinds, h.wakes(), "wake");
        addKind(kinds, h.returns(), "return");
        return " (" + kinds + ")";
    }

    private static void addKind(StringBuilder kinds, long count, String kind) {
        if (count > 0) {
            kinds.append(kinds.length() > 0 ? ", " : "").append(count).append(' ').append(kind);
        }
    }

    /** "13.1 MiB, 41 ms transforming 212 classes (3 rewritten)": the agent's own work. */
    static String agentWork(AgentWork w) {
        StringBuilder sb = new StringBuilder(Units.bytes(w.allocatedBytes())).append(", ")
                .append(Units.nanos(w.nanos())).append(" transforming ").append(w.classes()).append(" class(es)");
        if (w.transformedClasses() > 0) {
            sb.append(" (").append(w.transformedClasses()).append(" rewritten)");
        }
        if (w.cpuNanos() >= 0) {
            sb.append(", cpu ").append(Units.nanos(w.cpuNanos()));
        }
        if (w.sampledAllocationBytes() > 0) {
            sb.append("; ").append(Units.bytes(w.sampledAllocationBytes()))
                    .append(" of allocation samples in its package");
        }
        return sb.toString();
    }

    /** "warm-up: waited on 212 class load(s), 41 ms in the agent's transformer, gc 0 ns": what a warm-up request waited on. */
    static String warmup(Request r) {
        return "warm-up: waited on " + r.agentWork().classes() + " class load(s), "
                + Units.nanos(r.agentWork().nanos()) + " in the agent's transformer, gc " + Units.nanos(r.gc().nanos());
    }

    /**
     * "server queue 2.50 ms, ": a server request's time in its server's queue, first of its figures
     * (its queue delay is the application's handoffs only); nothing for a request no server received.
     */
    static String serverQueue(Request r) {
        ServerQueue q = r.serverQueue();
        if (!r.server() && !q.queued()) {
            return "";
        }
        return "server queue " + Units.nanos(q.nanos()) + (q.hops() > 1 ? " (" + q.hops() + " hand-overs)" : "") + ", ";
    }

    /** "server request": the first words of a request's header; a client's or a {@code requests=} boundary's read as before. */
    static String requestWord(Request r) {
        return r.server() ? "server request" : "request";
    }

    /**
     * "java.net.http.HttpClient#send 2 x 1.05 ms (total 2.10 ms, self 2.10 ms)": a request's outbound
     * calls (its nested boundaries), each name's count, mean, total and self time; null when none.
     */
    static String calls(Spans s) {
        List<PolicyTime> calls = s.calls();
        if (calls.isEmpty()) {
            return null;
        }
        return calls.stream().map(c -> c.name() + " " + c.count() + " x " + Units.nanos(c.totalNanos() / (double) c.count())
                + " (total " + Units.nanos(c.totalNanos()) + ", self " + Units.nanos(c.selfNanos()) + ")")
                .collect(Collectors.joining(", "));
    }

    static void writeRequest(int rank, Request r, PrintWriter out) {
        out.printf(Locale.ROOT, "#%d %s %d  %s  %s%s  %s  started %s%s%n", rank, requestWord(r), r.id(), r.name(),
                r.outcome(), r.error() != null ? " (" + r.error() + ")" : "", Units.nanos(r.durationNanos()),
                Units.epoch(r.startEpochNanos()), r.warmup() ? "  warm-up" : "");
        if (r.traceId() != null) {
            out.println("  trace " + r.traceId() + (r.spanId() != null ? " span " + r.spanId() : ""));
        }
        Hops hops = r.hops();
        out.printf(Locale.ROOT, "  %d hop(s)%s, %d thread(s); %sblocked %s, queue delay %s, wake latency %s%s, gc %s%n",
                hops.count(), hopKinds(hops), r.threads().size(), serverQueue(r), Units.nanos(r.waits().blockedNanos()),
                Units.nanos(hops.queueDelayNanos()), Units.nanos(hops.wakeLatencyNanos()),
                hops.returns() > 0 ? ", return delay " + Units.nanos(hops.returnDelayNanos()) : "", Units.nanos(r.gc().nanos()));
        unexplained(r).forEach(line -> out.println("  " + line));
        if (r.detailKept() && !r.segments().isEmpty()) {
            writeLanes(r, out);
        }
        int n = 1;
        for (Hop h : hops.list()) {
            out.printf(Locale.ROOT, "  hop %d: %-7s %s -> %s at +%s, %s%s %s%s%s%n", n++, h.kind(), h.from().label(),
                    h.to().label(), Units.nanos(h.arrivalEpochNanos() - r.startEpochNanos()),
                    h.scheduledNanos() > 0 ? "scheduled " + Units.nanos(h.scheduledNanos()) + ", " : "",
                    h.delayName(), Units.nanos(h.delayNanos()),
                    h.via() != null ? " via " + h.via() : "", h.serverQueue() ? " (server queue)" : "");
        }
        for (ThreadTime t : r.threads()) {
            out.printf(Locale.ROOT, "  thread %-24s %3d segment(s) %10s %12s allocated%n", Units.fit(t.thread().label(), 24),
                    t.segments(), Units.nanos(t.nanos()), Units.bytes(t.allocatedBytes()));
        }
        out.println("  " + allocation(r.allocation()));
        if (r.agentWork().any()) {
            out.println("  agent: " + agentWork(r.agentWork()) + ", not counted above");
        }
        if (r.warmup()) {
            out.println("  " + warmup(r));
        }
        if (r.carriers().any()) {
            out.println("  " + carriers(r.carriers()));
        }
        writeLock(r.lock(), out);
        String calls = calls(r.spans());
        if (calls != null) {
            out.println("  calls: " + calls);
        }
        if (!r.spans().policies().isEmpty()) {
            out.println("  spans (self time): " + r.spans().policies().stream().limit(8)
                    .map(p -> simpleName(p.name()) + " " + Units.nanos(p.selfNanos()))
                    .collect(Collectors.joining(", ")));
        }
    }

    /**
     * "allocated 24.0 KiB exact; top sampled sites: ...": what a request's threads allocated, how much of
     * it estimated, and where the samples say most of it was.
     */
    static String allocation(Allocation a) {
        return "allocated " + Units.bytes(a.bytes()) + (a.estimatedBytes() == 0 ? " exact"
                : ", of which " + Units.bytes(a.estimatedBytes()) + " estimated from allocation samples"
                        + " (virtual threads have no allocation counter)")
                + (a.sites().isEmpty() ? "" : "; top sampled sites: " + a.sites().stream()
                .map(TextReport::site).collect(Collectors.joining(", ")));
    }

    /** "lock contention: 1 event(s), 2.00 ms", then each top site with its stack; "none" without contention. */
    private static void writeLock(LockContention lock, PrintWriter out) {
        if (lock.count() == 0) {
            out.println("  lock contention: none");
            return;
        }
        out.println("  lock contention: " + lock.count() + " event(s), " + Units.nanos(lock.nanos()));
        for (LockSite l : lock.top()) {
            out.printf(Locale.ROOT, "    %s %s: %d, %s%n", l.kind(), l.className(), l.count(), Units.nanos(l.nanos()));
            for (String frame : l.stack().split("\n")) {
                if (!frame.isEmpty()) {
                    out.println("      at " + frame);
                }
            }
        }
    }

    /** "virtual threads: 2, 4 mount(s) on carriers A, B; mount wait 1.8 ms (max 1.7 ms), mounted 41 ms, pinned 25 ms (1)". */
    static String carriers(CarrierUse c) {
        return "virtual threads: " + c.virtualThreads() + ", " + c.mounts() + " mount(s)"
                + (c.carrierNames().isEmpty() ? "" : " on carriers " + String.join(", ", c.carrierNames()))
                + "; mount wait " + Units.nanos(c.mountWaitNanos()) + " (max " + Units.nanos(c.maxMountWaitNanos())
                + "), mounted " + Units.nanos(c.mountedNanos()) + ", pinned "
                + (c.pinnedCount() == 0 ? "none" : Units.nanos(c.pinnedNanos()) + " (" + c.pinnedCount() + ")");
    }

    private static String site(AllocationSite a) {
        return a.frame() + " " + Units.bytes(a.sampledBytes());
    }

    private static String simpleName(String name) {
        int dot = name.lastIndexOf('.', name.indexOf('#') >= 0 ? name.indexOf('#') : name.length());
        return dot >= 0 ? name.substring(dot + 1) : name;
    }

    static void writeLanes(Request r, PrintWriter out) {
        long start = r.startEpochNanos();
        long span = Math.max(1, r.durationNanos());
        Map<ThreadRef, char[]> lanes = new LinkedHashMap<>();
        List<Segment> segments = new ArrayList<>(r.segments());
        for (Segment s : segments) {
            fill(lanes.computeIfAbsent(s.thread(), k -> blank()), s.startEpochNanos(), s.endEpochNanos(), start, span, '=');
        }
        for (Wait w : r.waits().list()) {
            if (w.thread() != null) { // a wait event without its thread has no lane to go on
                fill(lanes.computeIfAbsent(w.thread(), k -> blank()), w.startEpochNanos(), w.endEpochNanos(), start, span, '.');
            }
        }
        int n = 1;
        for (Hop h : r.hops().list()) {
            char[] lane = lanes.computeIfAbsent(h.to(), k -> blank());
            lane[column(h.arrivalEpochNanos(), start, span)] = n <= 9 ? (char) ('0' + n) : '+';
            n++;
        }
        int width = Math.min(24, lanes.keySet().stream().mapToInt(t -> t.label().length()).max().orElse(4));
        out.printf(Locale.ROOT, "  %-" + width + "s |%s| one column = %s%n", "",
                "0" + " ".repeat(LANE_COLUMNS - 2) + "", Units.nanos(span / (double) LANE_COLUMNS));
        lanes.forEach((t, lane) -> out.printf(Locale.ROOT, "  %-" + width + "s |%s|%n",
                Units.fit(t.label(), width), new String(lane)));
    }

    private static char[] blank() {
        char[] c = new char[LANE_COLUMNS];
        java.util.Arrays.fill(c, ' ');
        return c;
    }

    private static void fill(char[] lane, long from, long to, long start, long span, char mark) {
        int a = column(from, start, span);
        int b = column(Math.max(from, to - 1), start, span);
        for (int i = a; i <= b; i++) {
            if (lane[i] == ' ' || mark == '=') {
                lane[i] = mark;
            }
        }
    }

    private static int column(long t, long start, long span) {
        long c = (t - start) * LANE_COLUMNS / span;
        return (int) Math.max(0, Math.min(LANE_COLUMNS - 1, c));
    }
}
