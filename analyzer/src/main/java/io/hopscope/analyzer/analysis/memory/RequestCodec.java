package io.hopscope.analyzer.analysis.memory;

import io.hopscope.analyzer.model.AgentWork;
import io.hopscope.analyzer.model.Allocation;
import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.CarrierUse;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.GcTime;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.Hops;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.ServerQueue;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.Spans;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.UnexplainedSite;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.model.Waits;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary form of a {@link Request} in {@link RequestSpill}'s data file: every field of the model's
 * records, in declaration order, one section per part of the request ({@code RequestFieldsTest} fails
 * when a new field is left out). The file lives as long as the analyzer's run: the layout may change
 * between versions.
 */
public final class RequestCodec {

    private RequestCodec() {
    }

    public static void write(DataOutputStream o, Request r) throws IOException {
        o.writeLong(r.id());
        str(o, r.name());
        str(o, r.kind());
        str(o, r.boundary());
        str(o, r.url());
        str(o, r.outcome());
        str(o, r.error());
        o.writeInt(r.statusCode());
        str(o, r.traceId());
        str(o, r.spanId());
        thread(o, r.startThread());
        o.writeLong(r.startEpochNanos());
        o.writeLong(r.durationNanos());
        list(o, r.threads(), RequestCodec::threadTime);
        list(o, r.segments(), RequestCodec::segment);
        hops(o, r.hops());
        serverQueue(o, r.serverQueue());
        waits(o, r.waits());
        spans(o, r.spans());
        allocation(o, r.allocation());
        lock(o, r.lock());
        gc(o, r.gc());
        carriers(o, r.carriers());
        unexplained(o, r.unexplained());
        agentWork(o, r.agentWork());
        o.writeBoolean(r.detailKept());
    }

    public static Request read(DataInputStream i) throws IOException {
        return new Request(i.readLong(), str(i), str(i), str(i), str(i), str(i), str(i), i.readInt(), str(i), str(i),
                thread(i), i.readLong(), i.readLong(), list(i, RequestCodec::threadTime), list(i, RequestCodec::segment),
                hops(i), serverQueue(i), waits(i), spans(i), allocation(i), lock(i), gc(i), carriers(i), unexplained(i),
                agentWork(i), i.readBoolean());
    }

    // One section per part of the request: a writer and a reader, each field in declaration order;
    // a part with nothing in it reads back as its NONE.

    private static void hops(DataOutputStream o, Hops h) throws IOException {
        o.writeInt(h.count());
        o.writeInt(h.handoffs());
        o.writeLong(h.queueDelayNanos());
        o.writeInt(h.wakes());
        o.writeLong(h.wakeLatencyNanos());
        o.writeInt(h.returns());
        o.writeLong(h.returnDelayNanos());
        list(o, h.list(), RequestCodec::hop);
    }

    private static Hops hops(DataInputStream i) throws IOException {
        return new Hops(i.readInt(), i.readInt(), i.readLong(), i.readInt(), i.readLong(), i.readInt(), i.readLong(),
                list(i, RequestCodec::hop));
    }

    private static void serverQueue(DataOutputStream o, ServerQueue q) throws IOException {
        o.writeInt(q.hops());
        o.writeLong(q.nanos());
    }

    private static ServerQueue serverQueue(DataInputStream i) throws IOException {
        ServerQueue q = new ServerQueue(i.readInt(), i.readLong());
        return q.equals(ServerQueue.NONE) ? ServerQueue.NONE : q;
    }

    private static void waits(DataOutputStream o, Waits w) throws IOException {
        o.writeLong(w.blockedNanos());
        o.writeBoolean(w.onNonBlockingThread());
        list(o, w.list(), RequestCodec::wait);
    }

    private static Waits waits(DataInputStream i) throws IOException {
        return new Waits(i.readLong(), i.readBoolean(), list(i, RequestCodec::wait));
    }

    private static void spans(DataOutputStream o, Spans s) throws IOException {
        list(o, s.policies(), RequestCodec::policy);
        list(o, s.list(), RequestCodec::span);
    }

    private static Spans spans(DataInputStream i) throws IOException {
        return new Spans(list(i, RequestCodec::policy), list(i, RequestCodec::span));
    }

    private static void allocation(DataOutputStream o, Allocation a) throws IOException {
        o.writeLong(a.bytes());
        o.writeLong(a.estimatedBytes());
        list(o, a.sites(), RequestCodec::allocationSite);
    }

    private static Allocation allocation(DataInputStream i) throws IOException {
        return new Allocation(i.readLong(), i.readLong(), list(i, RequestCodec::allocationSite));
    }

    private static void lock(DataOutputStream o, LockContention l) throws IOException {
        o.writeLong(l.count());
        o.writeLong(l.nanos());
        list(o, l.top(), RequestCodec::lockSite);
    }

    private static LockContention lock(DataInputStream i) throws IOException {
        long count = i.readLong();
        long nanos = i.readLong();
        List<LockSite> top = list(i, RequestCodec::lockSite);
        return count == 0 && top.isEmpty() ? LockContention.NONE : new LockContention(count, nanos, top);
    }

    private static void gc(DataOutputStream o, GcTime g) throws IOException {
        o.writeLong(g.nanos());
        list(o, g.pauses(), RequestCodec::gcPause);
    }

    private static GcTime gc(DataInputStream i) throws IOException {
        return new GcTime(i.readLong(), list(i, RequestCodec::gcPause));
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
