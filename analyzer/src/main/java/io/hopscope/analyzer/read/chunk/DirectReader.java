package io.hopscope.analyzer.read.chunk;

import io.hopscope.analyzer.read.JfrEvent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Reads a recording's wanted events without {@code jdk.jfr.consumer}: its chunks are decoded alone, in
 * parallel ({@link ChunkDecoder}, each with its own metadata, pools and tick base), and handed to the
 * handlers one chunk after the other in file order, with the flush handler called where the JDK's file
 * stream calls it (at each checkpoint flagged as a flush point, and at each chunk's end). The pass
 * therefore sees what it sees from the JDK's unordered stream, event for event.
 *
 * <p>Memory: at most {@code threads + 1} decoded chunks wait beside the one being handed over; the
 * file itself is mapped, not read into the heap.
 */
public final class DirectReader {

    /** A file (or a chunk of it) this reader cannot read, found before any event was handed over: the JDK's reader may. */
    public static final class Unreadable extends Exception {
        public Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    /** A chunk that failed after earlier chunks' events were handed over: the pass cannot start again. */
    public static final class Malformed extends Exception {
        public Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /** Where a chunk is in the file. */
    public record Chunk(long offset, long size) {
    }

    private DirectReader() {
    }

    /**
     * Reads {@code chunks} of {@code file}, calling the handler of each wanted event type, and
     * {@code onFlush} (when not null) at each flush point and chunk end, on this thread.
     */
    public static void read(Path file, List<Chunk> chunks, Map<String, ? extends Consumer<? super JfrEvent>> handlers,
                            Runnable onFlush, int threads) throws IOException, Unreadable, Malformed {
        List<String> wanted = new ArrayList<>(handlers.keySet());
        @SuppressWarnings("unchecked")
        Consumer<? super JfrEvent>[] byIndex = new Consumer[wanted.size()];
        for (int i = 0; i < byIndex.length; i++) {
            byIndex[i] = handlers.get(wanted.get(i));
        }
        int n = chunks.size();
        ByteBuffer[] buffers = new ByteBuffer[n];
        TimeBase[] times;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            TimeBase[] own = new TimeBase[n];
            long[] metadataIds = new long[n];
            for (int i = 0; i < n; i++) {
                Chunk c = chunks.get(i);
                if (c.size() > Integer.MAX_VALUE) {
                    throw new Unreadable("chunk " + (i + 1) + " is over 2 GiB");
                }
                buffers[i] = ch.map(FileChannel.MapMode.READ_ONLY, c.offset(), c.size());
                try {
                    metadataIds[i] = ChunkDecoder.metadataId(buffers[i]);
                    own[i] = ChunkDecoder.ownTime(buffers[i]);
                } catch (RuntimeException e) {
                    throw new Unreadable("chunk " + (i + 1) + ": " + reason(e));
                }
            }
            times = TimeBase.forChunks(own, metadataIds);
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "hopscope-chunk-decoder");
            t.setDaemon(true);
            return t;
        });
        try {
            int ahead = Math.max(1, threads) + 1;
            List<Future<DecodedChunk>> decoded = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                decoded.add(null);
            }
            for (int i = 0; i < Math.min(ahead, n); i++) {
                decoded.set(i, submit(pool, i, buffers, times, wanted));
            }
            DecodedEvent view = new DecodedEvent();
            ChunkPools previous = null;
            for (int i = 0; i < n; i++) {
                DecodedChunk chunk;
                try {
                    chunk = decoded.get(i).get();
                } catch (ExecutionException e) {
                    String why = "chunk " + (i + 1) + " (at byte " + chunks.get(i).offset() + "): " + reason(e.getCause());
                    if (i == 0) {
                        throw new Unreadable(why);
                    }
                    throw new Malformed(why);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while decoding chunk " + (i + 1), e);
                }
                decoded.set(i, null);
                buffers[i] = null;
                if (i + ahead < n) {
                    decoded.set(i + ahead, submit(pool, i + ahead, buffers, times, wanted));
                }
                chunk.pools.inheritThreads(previous);
                handOver(chunk, view, byIndex, onFlush);
                chunk.pools.dropStackIndex();
                previous = chunk.pools;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Future<DecodedChunk> submit(ExecutorService pool, int i, ByteBuffer[] buffers, TimeBase[] times,
                                               List<String> wanted) {
        ByteBuffer buffer = buffers[i];
        TimeBase time = times[i];
        return pool.submit(() -> ChunkDecoder.decode(i, buffer, time, wanted));
    }

    private static void handOver(DecodedChunk chunk, DecodedEvent view, Consumer<? super JfrEvent>[] handlers,
                                 Runnable onFlush) {
        long[] prims = chunk.prims;
        int p = 0;
        int r = 0;
        while (p < chunk.primCount) {
            int h = (int) prims[p];
            if (h == DecodedChunk.FLUSH) {
                p++;
                if (onFlush != null) {
                    onFlush.run();
                }
                continue;
            }
            EventLayout layout = chunk.layouts[h];
            view.at(chunk, layout, p, r);
            handlers[h].accept(view);
            p += layout.numbers;
            r += layout.objects;
        }
        if (onFlush != null) {
            onFlush.run();
        }
    }

    private static String reason(Throwable e) {
        if (e instanceof ChunkFormatException) {
            return e.getMessage();
        }
        if (e instanceof IndexOutOfBoundsException || e instanceof java.nio.BufferUnderflowException) {
            return "a value runs past the chunk's end";
        }
        return "cannot decode it (" + e.getClass().getSimpleName() + (e.getMessage() != null ? ": " + e.getMessage() : "")
                + ")";
    }
}
