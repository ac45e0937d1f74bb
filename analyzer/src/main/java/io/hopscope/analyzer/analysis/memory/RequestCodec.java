package io.hopscope.analyzer.analysis.memory;

import io.hopscope.analyzer.model.AgentWork;
import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.CarrierUse;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.ServerQueue;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.UnexplainedSite;
import io.hopscope.analyzer.model.Wait;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary form of a {@link Request} in {@link RequestSpill}'s data file: every field of the model's
 * records, in declaration order ({@code RequestFieldsTest} fails when a new field is left out).
 */
public final class RequestCodec {

    private RequestCodec() {
    }

    public static void write(DataOutputStream o, Request r) throws IOException {
        o.writeLong(r.id());
        str(o, r.name());
        str(o, r.boundary());
        str(o, r.url());
        str(o, r.outcome());
        str(o, r.error());
        o.writeInt(r.statusCode());
        thread(o, r.startThread());
        o.writeLong(r.startEpochNanos());
        o.writeLong(r.durationNanos());
        o.writeInt(r.hopCount());
        list(o, r.hopList(), RequestCodec::hop);
        list(o, r.threads(), RequestCodec::threadTime);
        list(o, r.segments(), RequestCodec::segment);
        list(o, r.waits(), RequestCodec::wait);
        list(o, r.spans(), RequestCodec::span);
        o.writeLong(r.allocatedBytes());
        o.writeLong(r.estimatedAllocatedBytes());
        o.writeLong(r.blockedNanos());
        o.writeLong(r.queueDelayNanos());
        o.writeLong(r.wakeLatencyNanos());
        o.writeInt(r.handoffHops());
        o.writeInt(r.wakeHops());
        o.writeInt(r.returnHops());
        o.writeLong(r.returnDelayNanos());
        o.writeBoolean(r.blockedOnNonBlockingThread());
        list(o, r.policies(), RequestCodec::policy);
        o.writeLong(r.lock().count());
        o.writeLong(r.lock().nanos());
        list(o, r.lock().top(), RequestCodec::lockSite);
        list(o, r.allocationSites(), RequestCodec::allocationSite);
        o.writeLong(r.gcNanos());
        list(o, r.gcPauses(), RequestCodec::gcPause);
        carriers(o, r.carriers());
        o.writeBoolean(r.detailKept());
        unexplained(o, r.unexplained());
        agentWork(o, r.agentWork());
        str(o, r.traceId());
        str(o, r.spanId());
        str(o, r.kind());
        o.writeInt(r.serverQueue().hops());
        o.writeLong(r.serverQueue().nanos());
    }

    private static void agentWork(DataOutputStream o, AgentWork w) throws IOException {
        o.writeLong(w.classes());
        o.writeLong(w.transformedClasses());
        o.writeLong(w.nanos());
        o.writeLong(w.cpuNanos());
        o.writeLong(w.allocatedBytes());
        o.writeLong(w.sampledAllocationBytes());
    }

    private static AgentWork agentWork(DataInputStream i) throws IOException {
        AgentWork w = new AgentWork(i.readLong(), i.readLong(), i.readLong(), i.readLong(), i.readLong(), i.readLong());
        return w.equals(AgentWork.NONE) ? AgentWork.NONE : w;
    }

    public static Request read(DataInputStream i) throws IOException {
        long id = i.readLong();
        String name = str(i);
        String boundary = str(i);
        String url = str(i);
        String outcome = str(i);
        String error = str(i);
        int status = i.readInt();
        ThreadRef startThread = thread(i);
        long start = i.readLong();
        long duration = i.readLong();
        int hops = i.readInt();
        List<Hop> hopList = list(i, RequestCodec::hop);
        List<ThreadTime> threads = list(i, RequestCodec::threadTime);
        List<Segment> segments = list(i, RequestCodec::segment);
        List<Wait> waits = list(i, RequestCodec::wait);
        List<Span> spans = list(i, RequestCodec::span);
        long allocated = i.readLong();
        long estimatedAllocated = i.readLong();
        long blocked = i.readLong();
        long queueDelay = i.readLong();
        long wakeLatency = i.readLong();
        int handoffHops = i.readInt();
        int wakeHops = i.readInt();
        int returnHops = i.readInt();
        long returnDelay = i.readLong();
        boolean nonBlocking = i.readBoolean();
        List<PolicyTime> policies = list(i, RequestCodec::policy);
        long lockCount = i.readLong();
        long lockNanos = i.readLong();
        List<LockSite> locks = list(i, RequestCodec::lockSite);
        LockContention lock = lockCount == 0 && locks.isEmpty() ? LockContention.NONE
                : new LockContention(lockCount, lockNanos, locks);
        List<AllocationSite> sites = list(i, RequestCodec::allocationSite);
        long gcNanos = i.readLong();
        List<GcPause> pauses = list(i, RequestCodec::gcPause);
        CarrierUse carriers = carriers(i);
        boolean detailKept = i.readBoolean();
        Unexplained unexplained = unexplained(i);
        AgentWork agentWork = agentWork(i);
        String traceId = str(i);
        String spanId = str(i);
        String kind = str(i);
        int serverQueueHops = i.readInt();
        long serverQueueNanos = i.readLong();
        ServerQueue serverQueue = serverQueueHops == 0 && serverQueueNanos == 0 ? ServerQueue.NONE
                : new ServerQueue(serverQueueHops, serverQueueNanos);
        return new Request(id, name, boundary, url, outcome, error, status, startThread, start, duration, hops,
                hopList, threads, segments, waits, spans, allocated, estimatedAllocated, blocked, queueDelay, wakeLatency, handoffHops,
                wakeHops, returnHops, returnDelay, nonBlocking, policies, lock, sites, gcNanos, pauses, carriers, detailKept,
                unexplained, agentWork, traceId, spanId, kind, serverQueue);
    }

    // One writer and one reader per nested record, each field in declaration order.

    private static void unexplained(DataOutputStream o, Unexplained u) throws IOException {
        o.writeLong(u.nanos());
        o.writeLong(u.count());
        list(o, u.top(), RequestCodec::unexplainedSite);
    }

    private static Unexplained unexplained(DataInputStream i) throws IOException {
        long nanos = i.readLong();
        long count = i.readLong();
        List<UnexplainedSite> top = list(i, RequestCodec::unexplainedSite);
        return count == 0 && top.isEmpty() ? Unexplained.NONE : new Unexplained(nanos, count, top);
    }

    private static void unexplainedSite(DataOutputStream o, UnexplainedSite u) throws IOException {
        str(o, u.kind());
        str(o, u.frame());
        str(o, u.blocker());
        o.writeLong(u.count());
        o.writeLong(u.nanos());
        thread(o, u.waker());
        str(o, u.stack());
    }

    private static UnexplainedSite unexplainedSite(DataInputStream i) throws IOException {
        return new UnexplainedSite(str(i), str(i), str(i), i.readLong(), i.readLong(), thread(i), str(i));
    }

    private static void carriers(DataOutputStream o, CarrierUse c) throws IOException {
        o.writeInt(c.virtualThreads());
        o.writeInt(c.mounts());
        list(o, c.carrierNames(), RequestCodec::str);
        o.writeLong(c.mountWaitNanos());
        o.writeLong(c.maxMountWaitNanos());
        o.writeLong(c.mountedNanos());
        o.writeInt(c.pinnedCount());
        o.writeLong(c.pinnedNanos());
    }

    private static CarrierUse carriers(DataInputStream i) throws IOException {
        int virtualThreads = i.readInt();
        int mounts = i.readInt();
        List<String> names = list(i, RequestCodec::str);
        long wait = i.readLong();
        long maxWait = i.readLong();
        long mounted = i.readLong();
        int pinnedCount = i.readInt();
        long pinned = i.readLong();
        return virtualThreads == 0 && pinnedCount == 0 ? CarrierUse.NONE
                : new CarrierUse(virtualThreads, mounts, names, wait, maxWait, mounted, pinnedCount, pinned);
    }

    private static void hop(DataOutputStream o, Hop h) throws IOException {
        str(o, h.kind());
        thread(o, h.from());
        thread(o, h.to());
        o.writeLong(h.arrivalEpochNanos());
        o.writeLong(h.delayNanos());
        str(o, h.via());
        o.writeLong(h.scheduledNanos());
        o.writeBoolean(h.serverQueue());
    }

    private static Hop hop(DataInputStream i) throws IOException {
        return new Hop(str(i), thread(i), thread(i), i.readLong(), i.readLong(), str(i), i.readLong(), i.readBoolean());
    }

    private static void threadTime(DataOutputStream o, ThreadTime t) throws IOException {
        thread(o, t.thread());
        o.writeInt(t.segments());
        o.writeLong(t.nanos());
        o.writeLong(t.allocatedBytes());
    }

    private static ThreadTime threadTime(DataInputStream i) throws IOException {
        return new ThreadTime(thread(i), i.readInt(), i.readLong(), i.readLong());
    }

    private static void segment(DataOutputStream o, Segment s) throws IOException {
        thread(o, s.thread());
        str(o, s.kind());
        o.writeLong(s.startEpochNanos());
        o.writeLong(s.endEpochNanos());
        o.writeLong(s.allocatedBytes());
        o.writeLong(s.cpuNanos());
    }

    private static Segment segment(DataInputStream i) throws IOException {
        return new Segment(thread(i), str(i), i.readLong(), i.readLong(), i.readLong(), i.readLong());
    }

    private static void wait(DataOutputStream o, Wait w) throws IOException {
        str(o, w.kind());
        thread(o, w.thread());
        thread(o, w.waker());
        o.writeLong(w.startEpochNanos());
        o.writeLong(w.endEpochNanos());
        o.writeLong(w.wakeLatencyNanos());
        o.writeBoolean(w.nonBlockingThread());
        str(o, w.outcome());
    }

    private static Wait wait(DataInputStream i) throws IOException {
        return new Wait(str(i), thread(i), thread(i), i.readLong(), i.readLong(), i.readLong(), i.readBoolean(), str(i));
    }

    private static void span(DataOutputStream o, Span s) throws IOException {
        o.writeLong(s.spanId());
        o.writeLong(s.parentSpanId());
        str(o, s.kind());
        str(o, s.name());
        str(o, s.mode());
        o.writeInt(s.depth());
        thread(o, s.thread());
        o.writeLong(s.startEpochNanos());
        o.writeLong(s.endEpochNanos());
    }

    private static Span span(DataInputStream i) throws IOException {
        return new Span(i.readLong(), i.readLong(), str(i), str(i), str(i), i.readInt(), thread(i), i.readLong(),
                i.readLong());
    }

    private static void policy(DataOutputStream o, PolicyTime p) throws IOException {
        str(o, p.name());
        str(o, p.kind());
        o.writeLong(p.count());
        o.writeLong(p.totalNanos());
        o.writeLong(p.selfNanos());
    }

    private static PolicyTime policy(DataInputStream i) throws IOException {
        return new PolicyTime(str(i), str(i), i.readLong(), i.readLong(), i.readLong());
    }

    private static void lockSite(DataOutputStream o, LockSite l) throws IOException {
        str(o, l.kind());
        str(o, l.className());
        o.writeLong(l.count());
        o.writeLong(l.nanos());
        str(o, l.stack());
    }

    private static LockSite lockSite(DataInputStream i) throws IOException {
        return new LockSite(str(i), str(i), i.readLong(), i.readLong(), str(i));
    }

    private static void allocationSite(DataOutputStream o, AllocationSite a) throws IOException {
        str(o, a.frame());
        str(o, a.objectClass());
        o.writeLong(a.samples());
        o.writeLong(a.sampledBytes());
    }

    private static AllocationSite allocationSite(DataInputStream i) throws IOException {
        return new AllocationSite(str(i), str(i), i.readLong(), i.readLong());
    }

    private static void gcPause(DataOutputStream o, GcPause p) throws IOException {
        o.writeLong(p.gcId());
        str(o, p.name());
        o.writeLong(p.startEpochNanos());
        o.writeLong(p.endEpochNanos());
    }

    private static GcPause gcPause(DataInputStream i) throws IOException {
        return new GcPause(i.readLong(), str(i), i.readLong(), i.readLong());
    }

    /** Writes one element of a list. */
    @FunctionalInterface
    private interface ElementWriter<T> {
        void write(DataOutputStream o, T element) throws IOException;
    }

    /** Reads one element of a list. */
    @FunctionalInterface
    private interface ElementReader<T> {
        T read(DataInputStream i) throws IOException;
    }

    private static <T> void list(DataOutputStream o, List<T> items, ElementWriter<T> element) throws IOException {
        o.writeInt(items.size());
        for (T t : items) {
            element.write(o, t);
        }
    }

    private static <T> List<T> list(DataInputStream i, ElementReader<T> element) throws IOException {
        List<T> items = new ArrayList<>();
        for (int n = i.readInt(); n > 0; n--) {
            items.add(element.read(i));
        }
        return List.copyOf(items);
    }

    private static void str(DataOutputStream o, String s) throws IOException {
        if (s == null) {
            o.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        o.writeInt(b.length);
        o.write(b);
    }

    private static String str(DataInputStream i) throws IOException {
        int n = i.readInt();
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        i.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void thread(DataOutputStream o, ThreadRef t) throws IOException {
        o.writeBoolean(t != null);
        if (t != null) {
            o.writeLong(t.javaId());
            o.writeLong(t.osId());
            str(o, t.name());
            o.writeBoolean(t.virtual());
        }
    }

    private static ThreadRef thread(DataInputStream i) throws IOException {
        if (!i.readBoolean()) {
            return null;
        }
        long javaId = i.readLong();
        long osId = i.readLong();
        String name = str(i);
        boolean virtual = i.readBoolean();
        return ThreadRef.UNKNOWN.javaId() == javaId && ThreadRef.UNKNOWN.osId() == osId && "?".equals(name)
                ? ThreadRef.UNKNOWN : new ThreadRef(javaId, osId, name, virtual);
    }
}
