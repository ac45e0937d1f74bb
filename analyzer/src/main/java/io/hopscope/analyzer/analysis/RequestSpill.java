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
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Finished requests written to a temporary file instead of the heap, for outputs that want every
 * request ({@code --top} all, the JSON default) in an order other than the file's: each record goes
 * to a data file as it is finished, its (sort key, id, offset) to sorted runs of bounded size, and
 * the runs are merged into an offset file at the end (an external sort). Memory stays at one run,
 * whatever the number of requests; the files are deleted when the JVM exits.
 */
final class RequestSpill implements AutoCloseable {

    static final int RUN_ENTRIES = 1 << 20; // 24 MB of keys in memory at most

    private final int runEntries;

    private final Path dir;
    private final Path data;
    private final DataOutputStream dataOut;
    private final List<Path> runs = new ArrayList<>();
    private final ByteArrayOutputStream record = new ByteArrayOutputStream(512);
    private final DataOutputStream recordOut = new DataOutputStream(record);
    private long[] keys = new long[3 * 1024]; // key, id, offset
    private int entries;
    private long offset;
    private long count;

    RequestSpill() {
        this(RUN_ENTRIES);
    }

    /** {@code runEntries}: keys sorted in memory per run (small in tests, to merge several runs). */
    RequestSpill(int runEntries) {
        this.runEntries = runEntries;
        try {
            dir = Files.createTempDirectory("hopscope-spill");
            dir.toFile().deleteOnExit();
            data = dir.resolve("requests.bin");
            data.toFile().deleteOnExit();
            dataOut = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(data), 1 << 16));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary file for the requests: " + e.getMessage(), e);
        }
    }

    /** {@code sortKey} ascending, then {@code id} ascending, is the order {@link #finish} gives. */
    void add(long sortKey, Request r) {
        try {
            record.reset();
            write(recordOut, r);
            dataOut.writeInt(record.size());
            record.writeTo(dataOut);
            if (entries == runEntries) {
                flushRun();
            } else if (3 * entries == keys.length) {
                keys = Arrays.copyOf(keys, keys.length * 2);
            }
            keys[3 * entries] = sortKey;
            keys[3 * entries + 1] = r.id();
            keys[3 * entries + 2] = offset;
            entries++;
            offset += 4 + record.size();
            count++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the requests' temporary file: " + e.getMessage(), e);
        }
    }

    private void flushRun() throws IOException {
        Integer[] order = new Integer[entries];
        for (int i = 0; i < entries; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(keys[3 * a], keys[3 * b]);
            return c != 0 ? c : Long.compare(keys[3 * a + 1], keys[3 * b + 1]);
        });
        Path run = dir.resolve("run-" + runs.size() + ".bin");
        run.toFile().deleteOnExit();
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 16))) {
            for (int i : order) {
                out.writeLong(keys[3 * i]);
                out.writeLong(keys[3 * i + 1]);
                out.writeLong(keys[3 * i + 2]);
            }
        }
        runs.add(run);
        entries = 0;
    }

    /** Closes the data file, merges the runs, and gives a read-only list that reads each request from disk. */
    List<Request> finish() {
        try {
            dataOut.close();
            flushRun();
            keys = null;
            Path orderFile = dir.resolve("order.bin");
            orderFile.toFile().deleteOnExit();
            merge(orderFile);
            return new OnDisk(orderFile, data, count);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot sort the requests' temporary file: " + e.getMessage(), e);
        }
    }

    private void merge(Path orderFile) throws IOException {
        PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> {
            int c = Long.compare(a.key, b.key);
            return c != 0 ? c : Long.compare(a.id, b.id);
        });
        List<InputStream> open = new ArrayList<>();
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(orderFile), 1 << 16))) {
            for (Path run : runs) {
                DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), 1 << 16));
                open.add(in);
                Head h = next(in);
                if (h != null) {
                    heads.add(h);
                }
            }
            while (!heads.isEmpty()) {
                Head h = heads.poll();
                out.writeLong(h.offset);
                Head n = next(h.in);
                if (n != null) {
                    heads.add(n);
                }
            }
        } finally {
            for (InputStream in : open) {
                in.close();
            }
            for (Path run : runs) {
                Files.deleteIfExists(run);
            }
        }
    }

    /** The smallest unread entry of one sorted run. */
    private record Head(long key, long id, long offset, DataInputStream in) {
    }

    private static Head next(DataInputStream in) throws IOException {
        try {
            return new Head(in.readLong(), in.readLong(), in.readLong(), in);
        } catch (EOFException end) {
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        dataOut.close();
    }

    /** The merged order over the data file; each {@code get} reads one record. */
    private static final class OnDisk extends AbstractList<Request> {
        private final Path orderFile;
        private final Path data;
        private final int size;
        private RandomAccessFile order;
        private RandomAccessFile records;

        OnDisk(Path orderFile, Path data, long size) {
            this.orderFile = orderFile;
            this.data = data;
            this.size = (int) Math.min(Integer.MAX_VALUE, size);
        }

        @Override
        public synchronized Request get(int index) {
            if (index < 0 || index >= size) {
                throw new IndexOutOfBoundsException(index);
            }
            try {
                if (order == null) {
                    order = new RandomAccessFile(orderFile.toFile(), "r");
                    records = new RandomAccessFile(data.toFile(), "r");
                }
                order.seek(8L * index);
                records.seek(order.readLong());
                byte[] b = new byte[records.readInt()];
                records.readFully(b);
                return read(new DataInputStream(new ByteArrayInputStream(b)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the requests' temporary file: " + e.getMessage(), e);
            }
        }

        @Override
        public int size() {
            return size;
        }
    }

    // The codec: every field of the model's records, in declaration order.

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
