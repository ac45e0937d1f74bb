package io.hopscope.analyzer.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hopscope.analyzer.model.AgentWork;
import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.CarrierUse;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.KernelView;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.model.RequestsKept;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.UnexplainedSite;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.model.WakePair;
import io.hopscope.analyzer.model.Waker;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The JSON form of each model record, one method per record type, shared by {@link JsonReport},
 * {@link KernelJson} and {@link JsonDiff}. Field names are written out here one by one (not derived
 * from the model's Java names) so that refactoring the model cannot rename them; docs/json.md
 * documents each. Times are epoch nanoseconds, durations nanoseconds.
 */
final class JsonRecords {

    private JsonRecords() {
    }

    /** An array field {@code name} of {@code parent} with one object per item, filled by {@code record}. */
    static <T> void array(ObjectNode parent, String name, List<T> items, BiConsumer<ObjectNode, T> record) {
        ArrayNode a = parent.putArray(name);
        for (T item : items) {
            record.accept(a.addObject(), item);
        }
    }

    /** An array field of strings: {@code joined} split at {@code separator}, empty for an empty string. */
    static void split(ObjectNode parent, String name, String joined, String separator) {
        ArrayNode a = parent.putArray(name);
        if (!joined.isEmpty()) {
            for (String s : joined.split(separator)) {
                a.add(s);
            }
        }
    }

    static void strings(ObjectNode parent, String name, List<String> items) {
        ArrayNode a = parent.putArray(name);
        items.forEach(a::add);
    }

    /** Which requests the report holds: the first {@code worst} of {@code requests} are the worst, the rest the sample. */
    static ObjectNode kept(RequestsKept k) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.put("all", k.all());
        n.put("worst", k.worst());
        n.put("sortedBy", k.sortedBy());
        n.put("sampleEvery", k.sampleEvery());
        n.put("sampled", k.sampled());
        n.put("leftOut", k.leftOut());
        return n;
    }

    /** {@code --from}/{@code --to} as applied: an open side is null. */
    static ObjectNode window(RequestWindow w) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.put("asked", w.asked());
        n.put("originEpochNanos", w.originEpochNanos());
        if (w.fromEpochNanos() == Long.MIN_VALUE) {
            n.putNull("fromEpochNanos");
        } else {
            n.put("fromEpochNanos", w.fromEpochNanos());
        }
        if (w.toEpochNanos() == Long.MAX_VALUE) {
            n.putNull("toEpochNanos");
        } else {
            n.put("toEpochNanos", w.toEpochNanos());
        }
        n.put("leftOutBefore", w.leftOutBefore());
        n.put("leftOutAfter", w.leftOutAfter());
        return n;
    }

    static ObjectNode recording(RecordingInfo i) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
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
        ObjectNode late = n.putObject("lateEvents");
        late.put("count", i.lateEvents().count());
        late.put("notInShownRequest", i.lateEvents().notInShownRequest());
        late.put("leftOut", i.lateEvents().leftOut());
        strings(n, "warnings", i.warnings());
        return n;
    }

    static ObjectNode summary(NameSummary s) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
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
        n.put("meanHandoffHops", s.meanHandoffHops());
        n.put("meanWakeHops", s.meanWakeHops());
        n.put("meanReturnHops", s.meanReturnHops());
        n.put("meanReturnDelayNanos", s.meanReturnDelayNanos());
        n.put("meanAllocatedBytes", s.meanAllocatedBytes());
        n.put("meanLockNanos", s.meanLockNanos());
        n.put("meanBlockedNanos", s.meanBlockedNanos());
        n.put("meanGcNanos", s.meanGcNanos());
        n.put("meanMounts", s.meanMounts());
        n.put("meanMountWaitNanos", s.meanMountWaitNanos());
        n.put("meanPinnedNanos", s.meanPinnedNanos());
        n.put("nonBlockingShare", s.nonBlockingShare());
        n.put("errors", s.errors());
        n.put("meanUnexplainedNanos", s.meanUnexplainedNanos());
        n.put("explainedShare", s.explainedShare());
        n.put("unexplainedRequests", s.unexplainedRequests());
        n.put("warmupRequests", s.warmupRequests());
        n.set("agentWork", agentWork(s.agentWork()));
        ObjectNode kinds = n.putObject("kinds");
        kinds.put("server", s.kinds().server());
        kinds.put("client", s.kinds().client());
        kinds.put("internal", s.kinds().internal());
        ObjectNode serverQueue = n.putObject("serverQueue");
        serverQueue.put("meanNanos", s.serverQueue().meanNanos());
        serverQueue.put("p99Nanos", s.serverQueue().p99Nanos());
        serverQueue.put("queued", s.serverQueue().queued());
        return n;
    }

    static ObjectNode agentWork(AgentWork w) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.put("classes", w.classes());
        n.put("transformedClasses", w.transformedClasses());
        n.put("nanos", w.nanos());
        n.put("cpuNanos", w.cpuNanos());
        n.put("allocatedBytes", w.allocatedBytes());
        n.put("sampledAllocationBytes", w.sampledAllocationBytes());
        return n;
    }

    static ObjectNode request(Request r) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.put("id", r.id());
        n.put("name", r.name());
        n.put("kind", r.kind());
        n.put("boundary", r.boundary());
        n.put("url", r.url());
        n.put("outcome", r.outcome());
        n.put("error", r.error());
        n.put("statusCode", r.statusCode());
        n.put("traceId", r.traceId());
        n.put("spanId", r.spanId());
        n.set("startThread", thread(r.startThread()));
        n.put("startEpochNanos", r.startEpochNanos());
        n.put("durationNanos", r.durationNanos());
        n.put("hops", r.hops().count());
        array(n, "hopList", r.hops().list(), JsonRecords::hop);
        array(n, "threads", r.threads(), JsonRecords::threadTime);
        n.put("allocatedBytes", r.allocation().bytes());
        n.put("estimatedAllocatedBytes", r.allocation().estimatedBytes());
        n.put("blockedNanos", r.waits().blockedNanos());
        n.put("queueDelayNanos", r.hops().queueDelayNanos());
        n.put("wakeLatencyNanos", r.hops().wakeLatencyNanos());
        n.put("handoffHops", r.hops().handoffs());
        n.put("wakeHops", r.hops().wakes());
        n.put("returnHops", r.hops().returns());
        n.put("returnDelayNanos", r.hops().returnDelayNanos());
        n.put("serverQueueNanos", r.serverQueue().nanos());
        n.put("serverQueueHops", r.serverQueue().hops());
        n.put("blockedOnNonBlockingThread", r.waits().onNonBlockingThread());
        n.set("lock", lock(r.lock()));
        n.set("unexplained", unexplained(r.unexplained(), r.durationNanos()));
        array(n, "allocationSites", r.allocation().sites(), JsonRecords::allocationSite);
        array(n, "policies", r.spans().policies(), JsonRecords::policy);
        n.put("gcNanos", r.gc().nanos());
        array(n, "gcPauses", r.gc().pauses(), JsonRecords::gcPause);
        n.set("carriers", carriers(r.carriers()));
        array(n, "segments", r.segments(), JsonRecords::segment);
        array(n, "waits", r.waits().list(), JsonRecords::wait);
        array(n, "spans", r.spans().list(), JsonRecords::span);
        n.put("detailKept", r.detailKept());
        n.put("warmup", r.warmup());
        n.set("agentWork", agentWork(r.agentWork()));
        return n;
    }

    static ObjectNode lock(LockContention l) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.put("count", l.count());
        n.put("nanos", l.nanos());
        array(n, "top", l.top(), JsonRecords::lockSite);
        return n;
    }

    /** A request's unexplained time, with the share of its {@code durationNanos} that is explained. */
    static ObjectNode unexplained(Unexplained u, long durationNanos) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.put("nanos", u.nanos());
        n.put("count", u.count());
        n.put("explainedShare", u.explainedShare(durationNanos));
        array(n, "top", u.top(), JsonRecords::unexplainedSite);
        return n;
    }

    static ObjectNode carriers(CarrierUse c) {
        ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.put("virtualThreads", c.virtualThreads());
        n.put("mounts", c.mounts());
        strings(n, "carrierNames", c.carrierNames());
        n.put("mountWaitNanos", c.mountWaitNanos());
        n.put("maxMountWaitNanos", c.maxMountWaitNanos());
        n.put("mountedNanos", c.mountedNanos());
        n.put("pinnedCount", c.pinnedCount());
        n.put("pinnedNanos", c.pinnedNanos());
        return n;
    }

    static ObjectNode thread(ThreadRef t) {
        return t == null ? null : thread(JsonReport.MAPPER.createObjectNode(), t);
    }

    private static ObjectNode thread(ObjectNode o, ThreadRef t) {
        o.put("javaId", t.javaId());
        o.put("osId", t.osId());
        o.put("name", t.name());
        o.put("virtual", t.virtual());
        return o;
    }

    static void hop(ObjectNode o, Hop h) {
        o.put("kind", h.kind());
        o.set("from", thread(h.from()));
        o.set("to", thread(h.to()));
        o.put("arrivalEpochNanos", h.arrivalEpochNanos());
        o.put("delayNanos", h.delayNanos());
        o.put("via", h.via());
        o.put("scheduledNanos", h.scheduledNanos());
        o.put("serverQueue", h.serverQueue());
    }

    static void threadTime(ObjectNode o, ThreadTime t) {
        thread(o, t.thread());
        o.put("segments", t.segments());
        o.put("nanos", t.nanos());
        o.put("allocatedBytes", t.allocatedBytes());
    }

    static void lockSite(ObjectNode o, LockSite l) {
        o.put("kind", l.kind());
        o.put("class", l.className());
        o.put("count", l.count());
        o.put("nanos", l.nanos());
        split(o, "stack", l.stack(), "\n");
    }

    static void unexplainedSite(ObjectNode o, UnexplainedSite u) {
        o.put("kind", u.kind());
        o.put("frame", u.frame());
        o.put("blocker", u.blocker());
        o.put("count", u.count());
        o.put("nanos", u.nanos());
        o.set("waker", thread(u.waker()));
        split(o, "stack", u.stack(), "\n");
    }

    static void allocationSite(ObjectNode o, AllocationSite a) {
        o.put("frame", a.frame());
        o.put("objectClass", a.objectClass());
        o.put("samples", a.samples());
        o.put("sampledBytes", a.sampledBytes());
    }

    static void policy(ObjectNode o, PolicyTime p) {
        o.put("name", p.name());
        o.put("kind", p.kind());
        o.put("count", p.count());
        o.put("totalNanos", p.totalNanos());
        o.put("selfNanos", p.selfNanos());
    }

    static void gcPause(ObjectNode o, GcPause p) {
        o.put("gcId", p.gcId());
        o.put("name", p.name());
        o.put("startEpochNanos", p.startEpochNanos());
        o.put("durationNanos", p.durationNanos());
    }

    static void segment(ObjectNode o, Segment s) {
        o.set("thread", thread(s.thread()));
        o.put("kind", s.kind());
        o.put("startEpochNanos", s.startEpochNanos());
        o.put("durationNanos", s.durationNanos());
        o.put("allocatedBytes", s.allocatedBytes());
        o.put("cpuNanos", s.cpuNanos());
    }

    static void wait(ObjectNode o, Wait w) {
        o.put("kind", w.kind());
        o.set("thread", thread(w.thread()));
        o.set("waker", thread(w.waker()));
        o.put("startEpochNanos", w.startEpochNanos());
        o.put("durationNanos", w.durationNanos());
        o.put("wakeLatencyNanos", w.wakeLatencyNanos());
        o.put("nonBlockingThread", w.nonBlockingThread());
        o.put("outcome", w.outcome());
    }

    static void span(ObjectNode o, Span s) {
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

    static void wakePair(ObjectNode o, WakePair p) {
        o.put("wakee", p.wakee());
        o.put("waker", p.waker());
        o.put("totalMicros", p.totalMicros());
        o.put("records", p.stacks());
    }

    static void place(ObjectNode o, KernelView.Place p) {
        o.put("during", p.during());
        o.put("offCpuNanos", p.offCpuNanos());
        o.put("runQueueNanos", p.runQueueNanos());
        o.put("contextSwitches", p.contextSwitches());
        o.put("futexWaits", p.futexWaits());
    }

    static void waker(ObjectNode o, Waker w) {
        o.put("waker", w.waker());
        o.put("thread", w.thread());
        o.put("during", w.during());
        o.put("count", w.count());
        o.put("futexWakes", w.futexWakes());
        o.put("waitsEnded", w.waitsEnded());
        o.put("offCpuNanos", w.offCpuNanos());
        o.put("runQueueNanos", w.runQueueNanos());
        array(o, "topStacks", w.topStacks(), JsonRecords::wakerStack);
    }

    static void wakerStack(ObjectNode o, Waker.WakerStack s) {
        split(o, "frames", s.stack(), ";");
        o.put("count", s.count());
    }
}
