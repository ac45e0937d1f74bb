package io.hopscope.analyzer.output;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Wait;
import java.io.IOException;
import java.io.Writer;

/**
 * {@code report --format json}: the stable machine format. Field names are written out here one by
 * one (not derived from the model's Java names) so that refactoring the model cannot rename them;
 * the README's analyzer section documents each. Times are epoch nanoseconds, durations nanoseconds.
 */
public final class JsonReport {

    /** Bumped when a field changes meaning or disappears; new fields do not bump it. */
    public static final int FORMAT_VERSION = 1;

    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {
    }

    public static void write(Report report, Writer out) throws IOException {
        write(report, null, out);
    }

    /** With {@code kernel} (from {@code --bpf}, may be null): its fields in the summary and requests, and a {@code kernel} object. */
    public static void write(Report report, KernelReport kernel, Writer out) throws IOException {
        // Streamed: the requests are written one at a time, never all as one tree.
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(new NonClosingWriter(out))) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeNumberField("formatVersion", FORMAT_VERSION);
            g.writeFieldName("recording");
            MAPPER.writeTree(g, recording(report.recording()));
            if (kernel != null) {
                g.writeFieldName("kernel");
                MAPPER.writeTree(g, KernelJson.info(kernel));
            }
            boolean perRequest = kernel != null && kernel.perRequest();
            g.writeArrayFieldStart("summary");
            for (NameSummary s : report.summary()) {
                ObjectNode n = summary(s);
                if (perRequest) {
                    KernelJson.addSummary(n, kernel.summary(s.name()));
                }
                MAPPER.writeTree(g, n);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("requests");
            for (Request r : report.requests()) {
                ObjectNode n = request(r);
                if (perRequest) {
                    KernelJson.addRequest(n, kernel.request(r.id()));
                }
                MAPPER.writeTree(g, n);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.write(System.lineSeparator());
        out.flush();
    }

    static ObjectNode recording(RecordingInfo i) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("file", i.file());
        n.put("startEpochNanos", i.startEpochNanos());
        n.put("endEpochNanos", i.endEpochNanos());
        n.put("hasHopscopeEvents", i.hasHopscopeEvents());
        n.put("hopscopeEvents", i.hopscopeEvents());
        n.put("jdkEvents", i.jdkEvents());
        n.put("agentVersion", i.agentVersion());
        n.put("agentOptions", i.agentOptions());
        n.put("clockOffsetNanos", i.clockOffsetNanos());
        n.put("clockSyncEvents", i.clockSyncCount());
        ObjectNode gc = n.putObject("gc");
        gc.put("count", i.gcCount());
        gc.put("pauseNanos", i.gcPauseNanos());
        n.put("peakThreadCount", i.peakThreadCount());
        ObjectNode alloc = n.putObject("allocation");
        alloc.put("requestsBytes", i.requestsAllocatedBytes());
        alloc.put("sampledBytes", i.sampledAllocationBytes());
        alloc.put("sampledBytesInRequests", i.sampledAllocationBytesInRequests());
        alloc.put("outsideRequestsShare", i.allocationOutsideRequestsShare());
        n.put("incompleteRequests", i.incompleteRequests());
        ArrayNode w = n.putArray("warnings");
        i.warnings().forEach(w::add);
        return n;
    }

    static ObjectNode summary(NameSummary s) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("name", s.name());
        n.put("count", s.count());
        n.put("throughputPerSecond", s.throughputPerSecond());
        ObjectNode lat = n.putObject("latencyNanos");
        lat.put("p50", s.p50Nanos());
        lat.put("p90", s.p90Nanos());
        lat.put("p99", s.p99Nanos());
        lat.put("max", s.maxNanos());
        lat.put("mean", s.meanNanos());
        n.put("meanHops", s.meanHops());
        n.put("maxHops", s.maxHops());
        n.put("meanQueueDelayNanos", s.meanQueueDelayNanos());
        n.put("meanWakeLatencyNanos", s.meanWakeLatencyNanos());
        n.put("meanAllocatedBytes", s.meanAllocatedBytes());
        n.put("meanLockNanos", s.meanLockNanos());
        n.put("meanBlockedNanos", s.meanBlockedNanos());
        n.put("meanGcNanos", s.meanGcNanos());
        n.put("nonBlockingShare", s.nonBlockingShare());
        n.put("errors", s.errors());
        return n;
    }

    static ObjectNode request(Request r) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("id", r.id());
        n.put("name", r.name());
        n.put("boundary", r.boundary());
        n.put("url", r.url());
        n.put("outcome", r.outcome());
        n.put("error", r.error());
        n.put("statusCode", r.statusCode());
        n.set("startThread", thread(r.startThread()));
        n.put("startEpochNanos", r.startEpochNanos());
        n.put("durationNanos", r.durationNanos());
        n.put("hops", r.hops());
        ArrayNode hops = n.putArray("hopList");
        for (Hop h : r.hopList()) {
            ObjectNode o = hops.addObject();
            o.put("kind", h.kind());
            o.set("from", thread(h.from()));
            o.set("to", thread(h.to()));
            o.put("arrivalEpochNanos", h.arrivalEpochNanos());
            o.put("delayNanos", h.delayNanos());
            o.put("via", h.via());
        }
        ArrayNode threads = n.putArray("threads");
        for (ThreadTime t : r.threads()) {
            ObjectNode o = thread(t.thread());
            o.put("segments", t.segments());
            o.put("nanos", t.nanos());
            o.put("allocatedBytes", t.allocatedBytes());
            threads.add(o);
        }
        n.put("allocatedBytes", r.allocatedBytes());
        n.put("blockedNanos", r.blockedNanos());
        n.put("queueDelayNanos", r.queueDelayNanos());
        n.put("wakeLatencyNanos", r.wakeLatencyNanos());
        n.put("blockedOnNonBlockingThread", r.blockedOnNonBlockingThread());
        ObjectNode lock = n.putObject("lock");
        lock.put("count", r.lock().count());
        lock.put("nanos", r.lock().nanos());
        ArrayNode top = lock.putArray("top");
        for (LockSite l : r.lock().top()) {
            ObjectNode o = top.addObject();
            o.put("kind", l.kind());
            o.put("class", l.className());
            o.put("count", l.count());
            o.put("nanos", l.nanos());
            ArrayNode stack = o.putArray("stack");
            if (!l.stack().isEmpty()) {
                for (String f : l.stack().split("\n")) {
                    stack.add(f);
                }
            }
        }
        ArrayNode sites = n.putArray("allocationSites");
        for (AllocationSite a : r.allocationSites()) {
            ObjectNode o = sites.addObject();
            o.put("frame", a.frame());
            o.put("objectClass", a.objectClass());
            o.put("samples", a.samples());
            o.put("sampledBytes", a.sampledBytes());
        }
        ArrayNode policies = n.putArray("policies");
        for (PolicyTime p : r.policies()) {
            ObjectNode o = policies.addObject();
            o.put("name", p.name());
            o.put("kind", p.kind());
            o.put("count", p.count());
            o.put("totalNanos", p.totalNanos());
            o.put("selfNanos", p.selfNanos());
        }
        n.put("gcNanos", r.gcNanos());
        ArrayNode gc = n.putArray("gcPauses");
        for (GcPause p : r.gcPauses()) {
            ObjectNode o = gc.addObject();
            o.put("gcId", p.gcId());
            o.put("name", p.name());
            o.put("startEpochNanos", p.startEpochNanos());
            o.put("durationNanos", p.durationNanos());
        }
        ArrayNode segments = n.putArray("segments");
        for (Segment s : r.segments()) {
            ObjectNode o = segments.addObject();
            o.set("thread", thread(s.thread()));
            o.put("kind", s.kind());
            o.put("startEpochNanos", s.startEpochNanos());
            o.put("durationNanos", s.durationNanos());
            o.put("allocatedBytes", s.allocatedBytes());
            o.put("cpuNanos", s.cpuNanos());
        }
        ArrayNode waits = n.putArray("waits");
        for (Wait w : r.waits()) {
            ObjectNode o = waits.addObject();
            o.put("kind", w.kind());
            o.set("thread", thread(w.thread()));
            o.set("waker", thread(w.waker()));
            o.put("startEpochNanos", w.startEpochNanos());
            o.put("durationNanos", w.durationNanos());
            o.put("wakeLatencyNanos", w.wakeLatencyNanos());
            o.put("nonBlockingThread", w.nonBlockingThread());
            o.put("outcome", w.outcome());
        }
        ArrayNode spans = n.putArray("spans");
        for (Span s : r.spans()) {
            ObjectNode o = spans.addObject();
            o.put("spanId", s.spanId());
            o.put("parentSpanId", s.parentSpanId());
            o.put("kind", s.kind());
            o.put("name", s.name());
            o.put("mode", s.mode());
            o.put("depth", s.depth());
            o.set("thread", thread(s.thread()));
            o.put("startEpochNanos", s.startEpochNanos());
            o.put("durationNanos", s.durationNanos());
        }
        n.put("detailKept", r.detailKept());
        return n;
    }

    static ObjectNode thread(ThreadRef t) {
        if (t == null) {
            return null;
        }
        ObjectNode n = MAPPER.createObjectNode();
        n.put("javaId", t.javaId());
        n.put("osId", t.osId());
        n.put("name", t.name());
        return n;
    }

    /** Jackson closes the writer it is given; the caller owns it (it may be stdout). */
    static final class NonClosingWriter extends java.io.FilterWriter {
        NonClosingWriter(Writer out) {
            super(out);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
