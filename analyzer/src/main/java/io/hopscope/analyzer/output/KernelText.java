package io.hopscope.analyzer.output;

import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.KernelSummary;
import io.hopscope.analyzer.model.KernelView;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.WakePair;
import io.hopscope.analyzer.model.Waker;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** The eBPF part of {@code report --bpf} as text: a kernel summary per request name, and per shown request. */
public final class KernelText {

    static final int PAIRS = 15;
    // KernelView's place for a request's segments (the rest are the agent's wait kinds).
    private static final String SEGMENT = "segment";

    private KernelText() {
    }

    /** The header, then per request name of the report (events) and per thread name. */
    public static void writeSummary(KernelReport k, List<NameSummary> names, PrintWriter out) {
        out.println("kernel (eBPF, " + k.format() + "): " + k.file() + ": " + k.intervals()
                + (k.perRequest() ? " off-CPU interval(s), " + k.intervalsInRequests() + " in requests" : " folded stack(s)"));
        if (!k.stackSampling().isEmpty()) {
            out.println("sampled: " + k.stackSampling());
        }
        k.notes().forEach(n -> out.println("note: " + n));
        if (k.perRequest()) {
            int nameWidth = Math.max(4, Math.min(40, names.stream().mapToInt(s -> s.name().length()).max().orElse(4)));
            String fmt = "%-" + nameWidth + "s %7s %10s %10s %9s %7s  %s%n";
            out.printf(Locale.ROOT, fmt, "name", "count", "offcpu", "runq", "switches", "futex", "top wakers (wakeups)");
            for (NameSummary n : names) {
                KernelSummary s = k.summary(n.name());
                if (s == null) {
                    continue;
                }
                out.printf(Locale.ROOT, fmt, Units.fit(s.name(), nameWidth), count(s), Units.nanos(s.meanOffCpuNanos()),
                        Units.nanos(s.meanRunQueueNanos()), String.format(Locale.ROOT, "%.1f", s.meanContextSwitches()),
                        String.format(Locale.ROOT, "%.1f", s.meanFutexWaits()), wakers(s.wakers(), 3));
            }
            out.println("(means per request over its threads' segments and waits: offcpu, runq = run-queue delay,"
                    + " switches = context switches, futex = futex waits"
                    + (k.incompleteRequests() > 0 ? "; a count N/M: M of the N requests overlap lost eBPF records, so"
                    + " those means are lower bounds" : "") + ")");
        }
        List<WakePair> pairs = k.threadNames();
        if (!pairs.isEmpty()) {
            out.println("off-CPU per thread name (wakee <- waker, whole process):");
            for (WakePair p : pairs.subList(0, Math.min(PAIRS, pairs.size()))) {
                out.printf(Locale.ROOT, "  %-24s <- %-28s %10s  %d%s%n", Units.fit(p.wakee(), 24), Units.fit(p.waker(), 28),
                        Units.nanos(p.totalMicros() * 1000.0), p.stacks(), k.perRequest() ? " interval(s)" : " stack(s)");
            }
            if (pairs.size() > PAIRS) {
                out.println("  ... " + (pairs.size() - PAIRS) + " more pair(s)");
            }
        }
    }

    /** What the kernel saw of one request of the text report (nothing for folded input). */
    public static void writeRequest(KernelReport k, Request r, PrintWriter out) {
        if (!k.perRequest()) {
            return;
        }
        KernelView v = k.request(r.id());
        out.println("  " + requestLine(v));
        out.println("  " + unexplainedOffCpu(v));
        String atLeast = v.incomplete() ? ">= " : "";
        for (KernelView.Place p : v.during()) {
            out.printf(Locale.ROOT, "    in %-22s off-CPU %s%s, run queue %s%s, %s%d switch(es), %s%d futex wait(s)%n",
                    Units.fit(p.during(), 22), atLeast, Units.nanos(p.offCpuNanos()), atLeast, Units.nanos(p.runQueueNanos()),
                    atLeast, p.contextSwitches(), atLeast, p.futexWaits());
        }
        for (Waker w : v.wakers().subList(0, Math.min(5, v.wakers().size()))) {
            out.printf(Locale.ROOT, "    woken by %s: %s in %s, %dx (%d futex wake(s)%s); %s off-CPU before, run queue %s after%n",
                    w.waker(), w.thread(), w.during(), w.count(), w.futexWakes(),
                    w.waitsEnded() > 0 ? ", ended " + w.waitsEnded() + " wait(s)" : "", Units.nanos(w.offCpuNanos()),
                    Units.nanos(w.runQueueNanos()));
            if (!w.topStacks().isEmpty() && !w.topStacks().get(0).stack().isEmpty()) {
                out.println("      waker stack: " + w.topStacks().get(0).stack().replace(";", " <- "));
            }
        }
    }

    /**
     * A request's kernel totals; for one that overlaps lost records, marked so and given as lower bounds
     * (a lost interval can only have added to each).
     */
    static String requestLine(KernelView v) {
        String atLeast = v.incomplete() ? ">= " : "";
        return String.format(Locale.ROOT, "kernel%s: off-CPU %s%s, run queue %s%s, %s%d context switch(es), %s%d futex wait(s)",
                v.incomplete() ? " (INCOMPLETE: overlaps lost eBPF records; lower bounds)" : "",
                atLeast, Units.nanos(v.offCpuNanos()), atLeast, Units.nanos(v.runQueueNanos()), atLeast, v.contextSwitches(),
                atLeast, v.futexWaits());
    }

    /**
     * The kernel's side of the request's blind spots: its threads' off-CPU time inside its segments,
     * which no wait of the agent's covers (a known wait is a place of its own), and who woke them there:
     * "unexplained off-CPU: 50.12 ms in its segments, woken by blind-unparker -> blind-caller in segment (1)".
     */
    static String unexplainedOffCpu(KernelView v) {
        long nanos = 0;
        for (KernelView.Place p : v.during()) {
            if (SEGMENT.equals(p.during())) {
                nanos += p.offCpuNanos();
            }
        }
        if (nanos == 0) {
            return "unexplained off-CPU: none";
        }
        List<Waker> wakers = v.wakers().stream().filter(w -> SEGMENT.equals(w.during())).toList();
        return "unexplained off-CPU: " + (v.incomplete() ? ">= " : "") + Units.nanos(nanos) + " in its segments, "
                + (wakers.isEmpty() ? "waker not seen" : "woken by " + wakers(wakers, 3));
    }

    /** A name's request count, with how many of them overlap lost records when any do ({@code N/M}). */
    static String count(KernelSummary s) {
        return s.incomplete() > 0 ? s.count() + "/" + s.incomplete() : Long.toString(s.count());
    }

    static String wakers(List<Waker> wakers, int n) {
        StringBuilder b = new StringBuilder();
        for (Waker w : wakers.subList(0, Math.min(n, wakers.size()))) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(w.waker()).append(" -> ").append(w.thread()).append(" in ").append(w.during())
                    .append(" (").append(w.count()).append(')');
        }
        return b.length() == 0 ? "-" : b.toString();
    }
}
