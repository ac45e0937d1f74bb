package io.hopscope.analyzer.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.KernelSummary;
import io.hopscope.analyzer.model.KernelView;
import io.hopscope.analyzer.model.WakePair;
import io.hopscope.analyzer.model.Waker;
import java.util.List;

/** The eBPF fields of {@code report --bpf --format json}; names written out one by one, documented in the README. */
final class KernelJson {

    private KernelJson() {
    }

    static ObjectNode info(KernelReport k) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.put("file", k.file());
        n.put("format", k.format());
        n.put("perRequest", k.perRequest());
        n.put("intervals", k.intervals());
        n.put("intervalsInRequests", k.intervalsInRequests());
        ArrayNode pairs = n.putArray("threadNames");
        for (WakePair p : k.threadNames()) {
            ObjectNode o = pairs.addObject();
            o.put("wakee", p.wakee());
            o.put("waker", p.waker());
            o.put("totalMicros", p.totalMicros());
            o.put("records", p.stacks());
        }
        ArrayNode notes = n.putArray("notes");
        k.notes().forEach(notes::add);
        return n;
    }

    static void addSummary(ObjectNode n, KernelSummary s) {
        if (s == null) {
            return;
        }
        n.put("meanOffCpuNanos", s.meanOffCpuNanos());
        n.put("meanRunQueueNanos", s.meanRunQueueNanos());
        n.put("meanContextSwitches", s.meanContextSwitches());
        n.put("meanFutexWaits", s.meanFutexWaits());
        wakers(n.putArray("wakers"), s.wakers());
    }

    static void addRequest(ObjectNode n, KernelView v) {
        n.put("offCpuNanos", v.offCpuNanos());
        n.put("runQueueNanos", v.runQueueNanos());
        n.put("contextSwitches", v.contextSwitches());
        n.put("futexWaits", v.futexWaits());
        ArrayNode during = n.putArray("kernelDuring");
        for (KernelView.Place p : v.during()) {
            ObjectNode o = during.addObject();
            o.put("during", p.during());
            o.put("offCpuNanos", p.offCpuNanos());
            o.put("runQueueNanos", p.runQueueNanos());
            o.put("contextSwitches", p.contextSwitches());
            o.put("futexWaits", p.futexWaits());
        }
        wakers(n.putArray("wakers"), v.wakers());
    }

    private static void wakers(ArrayNode a, List<Waker> wakers) {
        for (Waker w : wakers) {
            ObjectNode o = a.addObject();
            o.put("waker", w.waker());
            o.put("thread", w.thread());
            o.put("during", w.during());
            o.put("count", w.count());
            o.put("futexWakes", w.futexWakes());
            o.put("waitsEnded", w.waitsEnded());
            o.put("offCpuNanos", w.offCpuNanos());
            o.put("runQueueNanos", w.runQueueNanos());
            ArrayNode stacks = o.putArray("topStacks");
            for (Waker.WakerStack s : w.topStacks()) {
                ObjectNode so = stacks.addObject();
                ArrayNode frames = so.putArray("frames");
                if (!s.stack().isEmpty()) {
                    for (String f : s.stack().split(";")) {
                        frames.add(f);
                    }
                }
                so.put("count", s.count());
            }
        }
    }
}
