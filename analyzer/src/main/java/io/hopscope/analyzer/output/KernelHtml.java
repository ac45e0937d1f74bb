package io.hopscope.analyzer.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.KernelSummary;
import io.hopscope.analyzer.model.KernelView;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.WakePair;
import io.hopscope.analyzer.model.Waker;
import java.util.List;
import java.util.Locale;

/**
 * The kernel view's data for the HTML report ({@code report --format html --bpf}): figures already
 * formatted, as the page's script only sets them as text (the waker and thread names come from the
 * recording and the eBPF file, so they are never markup).
 */
final class KernelHtml {

    static final int WAKERS = 5;

    private KernelHtml() {
    }

    /** The header, the per-name table (the names the report shows) and the per-thread-name pairs. */
    static ObjectNode info(KernelReport k, List<NameSummary> names) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.put("text", "kernel (eBPF, " + k.format() + "): " + k.file() + ": " + k.intervals()
                + (k.perRequest() ? " off-CPU interval(s), " + k.intervalsInRequests() + " in requests" : " folded stack(s)"));
        n.put("perRequest", k.perRequest());
        ArrayNode notes = n.putArray("notes");
        if (!k.stackSampling().isEmpty()) {
            notes.add("sampled: " + k.stackSampling());
        }
        k.notes().forEach(notes::add);
        ArrayNode rows = n.putArray("names");
        for (NameSummary ns : names) {
            KernelSummary s = k.summary(ns.name());
            if (s == null) {
                continue;
            }
            rows.addObject().put("name", s.name()).put("count", KernelText.count(s))
                    .put("offCpu", Units.nanos(s.meanOffCpuNanos())).put("runQueue", Units.nanos(s.meanRunQueueNanos()))
                    .put("switches", String.format(Locale.ROOT, "%.1f", s.meanContextSwitches()))
                    .put("futex", String.format(Locale.ROOT, "%.1f", s.meanFutexWaits()))
                    .put("wakers", KernelText.wakers(s.wakers(), 3));
        }
        ArrayNode pairs = n.putArray("pairs");
        for (WakePair p : k.threadNames().subList(0, Math.min(KernelText.PAIRS, k.threadNames().size()))) {
            pairs.addObject().put("wakee", p.wakee()).put("waker", p.waker())
                    .put("offCpu", Units.nanos(p.totalMicros() * 1000.0)).put("count", p.stacks());
        }
        return n;
    }

    /** One shown request: totals, per place, and its top wakers with their most frequent stack. */
    static ObjectNode request(KernelView v) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.put("text", KernelText.requestLine(v));
        n.put("incomplete", v.incomplete());
        String atLeast = v.incomplete() ? ">= " : "";
        ArrayNode during = n.putArray("during");
        for (KernelView.Place p : v.during()) {
            during.add(String.format(Locale.ROOT, "in %s: off-CPU %s%s, run queue %s%s, %s%d switch(es), %s%d futex wait(s)",
                    p.during(), atLeast, Units.nanos(p.offCpuNanos()), atLeast, Units.nanos(p.runQueueNanos()), atLeast,
                    p.contextSwitches(), atLeast, p.futexWaits()));
        }
        ArrayNode wakers = n.putArray("wakers");
        for (Waker w : v.wakers().subList(0, Math.min(WAKERS, v.wakers().size()))) {
            wakers.addObject().put("waker", w.waker()).put("thread", w.thread()).put("during", w.during())
                    .put("count", w.count()).put("futexWakes", w.futexWakes()).put("waitsEnded", w.waitsEnded())
                    .put("offCpu", Units.nanos(w.offCpuNanos())).put("runQueue", Units.nanos(w.runQueueNanos()))
                    .put("stack", w.topStacks().isEmpty() ? "" : w.topStacks().get(0).stack().replace(";", " <- "));
        }
        return n;
    }
}
