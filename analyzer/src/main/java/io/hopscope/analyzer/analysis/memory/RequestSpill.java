package io.hopscope.analyzer.analysis.memory;

import io.hopscope.analyzer.model.Request;
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
public final class RequestSpill implements AutoCloseable {

    public static final int RUN_ENTRIES = 1 << 20; // 24 MB of keys in memory at most

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

    public RequestSpill() {
        this(RUN_ENTRIES);
    }

    /** {@code runEntries}: keys sorted in memory per run (small in tests, to merge several runs). */
    public RequestSpill(int runEntries) {
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
    /** Requests added so far. */
    public long size() {
        return count;
    }

    public void add(long sortKey, Request r) {
        try {
            record.reset();
            RequestCodec.write(recordOut, r);
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
    public List<Request> finish() {
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
                return RequestCodec.read(new DataInputStream(new ByteArrayInputStream(b)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the requests' temporary file: " + e.getMessage(), e);
            }
        }

        @Override
        public int size() {
            return size;
        }
    }
}
