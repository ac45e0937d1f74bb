package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
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
final class RequestCodec {

    private RequestCodec() {
    }

    static void write(DataOutputStream o, Request r) throws IOException {
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
        o.writeInt(r.hops());
        o.writeInt(r.hopList().size());
        for (Hop h : r.hopList()) {
            str(o, h.kind());
            thread(o, h.from());
            thread(o, h.to());
            o.writeLong(h.arrivalEpochNanos());
            o.writeLong(h.delayNanos());
            str(o, h.via());
        }
        o.writeInt(r.threads().size());
        for (ThreadTime t : r.threads()) {
            thread(o, t.thread());
            o.writeInt(t.segments());
            o.writeLong(t.nanos());
            o.writeLong(t.allocatedBytes());
        }
        o.writeInt(r.segments().size());
        for (Segment s : r.segments()) {
            thread(o, s.thread());
            str(o, s.kind());
            o.writeLong(s.startEpochNanos());
            o.writeLong(s.endEpochNanos());
            o.writeLong(s.allocatedBytes());
            o.writeLong(s.cpuNanos());
        }
        o.writeInt(r.waits().size());
        for (Wait w : r.waits()) {
            str(o, w.kind());
            thread(o, w.thread());
            thread(o, w.waker());
            o.writeLong(w.startEpochNanos());
            o.writeLong(w.endEpochNanos());
            o.writeLong(w.wakeLatencyNanos());
            o.writeBoolean(w.nonBlockingThread());
            str(o, w.outcome());
        }
        o.writeInt(r.spans().size());
        for (Span s : r.spans()) {
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
        o.writeLong(r.allocatedBytes());
        o.writeLong(r.blockedNanos());
        o.writeLong(r.queueDelayNanos());
        o.writeLong(r.wakeLatencyNanos());
        o.writeBoolean(r.blockedOnNonBlockingThread());
        o.writeInt(r.policies().size());
        for (PolicyTime p : r.policies()) {
            str(o, p.name());
            str(o, p.kind());
            o.writeLong(p.count());
            o.writeLong(p.totalNanos());
            o.writeLong(p.selfNanos());
        }
        o.writeLong(r.lock().count());
        o.writeLong(r.lock().nanos());
        o.writeInt(r.lock().top().size());
        for (LockSite l : r.lock().top()) {
            str(o, l.kind());
            str(o, l.className());
            o.writeLong(l.count());
            o.writeLong(l.nanos());
            str(o, l.stack());
        }
        o.writeInt(r.allocationSites().size());
        for (AllocationSite a : r.allocationSites()) {
            str(o, a.frame());
            str(o, a.objectClass());
            o.writeLong(a.samples());
            o.writeLong(a.sampledBytes());
        }
        o.writeLong(r.gcNanos());
        o.writeInt(r.gcPauses().size());
        for (GcPause p : r.gcPauses()) {
            o.writeLong(p.gcId());
            str(o, p.name());
            o.writeLong(p.startEpochNanos());
            o.writeLong(p.endEpochNanos());
        }
        o.writeBoolean(r.detailKept());
    }

    static Request read(DataInputStream i) throws IOException {
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
        List<Hop> hopList = new ArrayList<>();
        for (int n = i.readInt(); n > 0; n--) {
            hopList.add(new Hop(str(i), thread(i), thread(i), i.readLong(), i.readLong(), str(i)));
        }
        List<ThreadTime> threads = new ArrayList<>();
        for (int n = i.readInt(); n > 0; n--) {
            threads.add(new ThreadTime(thread(i), i.readInt(), i.readLong(), i.readLong()));
        }
        List<Segment> segments = new ArrayList<>();
        for (int n = i.readInt(); n > 0; n--) {
            segments.add(new Segment(thread(i), str(i), i.readLong(), i.readLong(), i.readLong(), i.readLong()));
        }
        List<Wait> waits = new ArrayList<>();
        for (int n = i.readInt(); n > 0; n--) {
            waits.add(new Wait(str(i), thread(i), thread(i), i.readLong(), i.readLong(), i.readLong(), i.readBoolean(),
                    str(i)));
        }
        List<Span> spans = new ArrayList<>();
        for (int n = i.readInt(); n > 0; n--) {
            spans.add(new Span(i.readLong(), i.readLong(), str(i), str(i), str(i), i.readInt(), thread(i), i.readLong(),
                    i.readLong()));
        }
        long allocated = i.readLong();
        long blocked = i.readLong();
        long queueDelay = i.readLong();
        long wakeLatency = i.readLong();
        boolean nonBlocking = i.readBoolean();
        List<PolicyTime> policies = new ArrayList<>();
        for (int n = i.readInt(); n > 0; n--) {
            policies.add(new PolicyTime(str(i), str(i), i.readLong(), i.readLong(), i.readLong()));
        }
        long lockCount = i.readLong();
        long lockNanos = i.readLong();
        List<LockSite> locks = new ArrayList<>();
        for (int n = i.readInt(); n > 0; n--) {
            locks.add(new LockSite(str(i), str(i), i.readLong(), i.readLong(), str(i)));
        }
        LockContention lock = lockCount == 0 && locks.isEmpty() ? LockContention.NONE
                : new LockContention(lockCount, lockNanos, List.copyOf(locks));
        List<AllocationSite> sites = new ArrayList<>();
        for (int n = i.readInt(); n > 0; n--) {
            sites.add(new AllocationSite(str(i), str(i), i.readLong(), i.readLong()));
        }
        long gcNanos = i.readLong();
        List<GcPause> pauses = new ArrayList<>();
        for (int n = i.readInt(); n > 0; n--) {
            pauses.add(new GcPause(i.readLong(), str(i), i.readLong(), i.readLong()));
        }
        boolean detailKept = i.readBoolean();
        return new Request(id, name, boundary, url, outcome, error, status, startThread, start, duration, hops,
                List.copyOf(hopList), List.copyOf(threads), List.copyOf(segments), List.copyOf(waits),
                List.copyOf(spans), allocated, blocked, queueDelay, wakeLatency, nonBlocking, List.copyOf(policies),
                lock, List.copyOf(sites), gcNanos, List.copyOf(pauses), detailKept);
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
        }
    }

    private static ThreadRef thread(DataInputStream i) throws IOException {
        if (!i.readBoolean()) {
            return null;
        }
        long javaId = i.readLong();
        long osId = i.readLong();
        String name = str(i);
        return ThreadRef.UNKNOWN.javaId() == javaId && ThreadRef.UNKNOWN.osId() == osId && "?".equals(name)
                ? ThreadRef.UNKNOWN : new ThreadRef(javaId, osId, name);
    }
}
