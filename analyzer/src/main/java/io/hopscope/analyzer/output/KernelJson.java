package io.hopscope.analyzer.output;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.KernelSummary;
import io.hopscope.analyzer.model.KernelView;

/** The eBPF fields of {@code report --bpf --format json}; names written out one by one, documented in docs/json.md. */
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
        n.put("lossWindows", k.lossWindows());
        n.put("incompleteRequests", k.incompleteRequests());
        n.put("stackEvery", k.stackEvery());
        JsonRecords.array(n, "threadNames", k.threadNames(), JsonRecords::wakePair);
        JsonRecords.strings(n, "notes", k.notes());
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
        JsonRecords.array(n, "wakers", s.wakers(), JsonRecords::waker);
        n.put("kernelIncompleteRequests", s.incomplete());
    }

    static void addRequest(ObjectNode n, KernelView v) {
        n.put("offCpuNanos", v.offCpuNanos());
        n.put("runQueueNanos", v.runQueueNanos());
        n.put("contextSwitches", v.contextSwitches());
        n.put("futexWaits", v.futexWaits());
        n.put("kernelIncomplete", v.incomplete());
        JsonRecords.array(n, "kernelDuring", v.during(), JsonRecords::place);
        JsonRecords.array(n, "wakers", v.wakers(), JsonRecords::waker);
    }
}
