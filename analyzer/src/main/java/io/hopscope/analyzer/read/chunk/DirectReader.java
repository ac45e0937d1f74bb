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
 * <p>Memory: the chunks waiting to be handed over, copied into the heap, hold at most an eighth of it
 * (or one chunk), plus eight bytes an event of their index; a chunk over a sixteenth of the heap is read
 * mapped instead. Of a chunk handed over, only its threads (for the next one) and the stacks its
 * events' handlers took stay.
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
        ByteBuffer[] mapped = new ByteBuffer[n];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            TimeBase[] own = new TimeBase[n];
            long[] metadataIds = new long[n];
            for (int i = 0; i < n; i++) {
                Chunk c = chunks.get(i);
                if (c.size() > Integer.MAX_VALUE) {
                    throw new Unreadable("chunk " + (i + 1) + " is over 2 GiB");
                }
                mapped[i] = ch.map(FileChannel.MapMode.READ_ONLY, c.offset(), c.size());
                try {
                    metadataIds[i] = ChunkDecoder.metadataId(mapped[i]);
                    own[i] = ChunkDecoder.ownTime(mapped[i]);
                } catch (RuntimeException e) {
                    throw new Unreadable("chunk " + (i + 1) + ": " + reason(e));
                }
            }
            TimeBase[] times = TimeBase.forChunks(own, metadataIds);
            readChunks(ch, chunks, mapped, times, wanted, byIndex, onFlush, threads);
        }
    }

    // The chunks are copied into the heap and decoded on the pool, and handed over in order; the chunks
    // waiting (copied, or being decoded) hold at most an eighth of the heap, or one chunk. A chunk bigger
    // than a sixteenth of the heap is read from the mapped file instead of copied (slower: each read of a
    // mapped buffer checks its scope), so that a small heap (HeapBoundIT's 64 MB) holds the pass's own.
    private static void readChunks(FileChannel ch, List<Chunk> chunks, ByteBuffer[] mapped, TimeBase[] times,
                                   List<String> wanted, Consumer<? super JfrEvent>[] byIndex, Runnable onFlush,
                                   int threads) throws IOException, Unreadable, Malformed {
        int n = chunks.size();
        long heap = Runtime.getRuntime().maxMemory();
        long budget = heap / 8;
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "hopscope-chunk-decoder");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<DecodedChunk>> decoded = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                decoded.add(null);
            }
            int next = 0;
            long waitingBytes = 0;
            DecodedEvent view = new DecodedEvent();
            Map<Long, Object> previousThreads = null;
            for (int i = 0; i < n; i++) {
                while (next < n && next - i <= threads
                        && (next == i || waitingBytes + chunks.get(next).size() <= budget)) {
                    int k = next++;
                    Chunk c = chunks.get(k);
                    boolean copy = c.size() <= heap / 16;
                    waitingBytes += copy ? c.size() : 0;
                    ByteBuffer map = mapped[k];
                    mapped[k] = null;
                    TimeBase time = times[k];
                    decoded.set(k, pool.submit(() -> ChunkDecoder.decode(k, copy ? copy(ch, c) : map, time, wanted)));
                }
                DecodedChunk chunk;
                try {
                    chunk = decoded.get(i).get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Error error) {
                        throw error; // out of memory is not a malformed file
                    }
                    if (e.getCause() instanceof IOException io) {
                        throw io;
                    }
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
                chunk.pools.inheritThreads(previousThreads);
                handOver(chunk, view, byIndex, onFlush);
                chunk.pools.dropStackIndex();
                previousThreads = chunk.pools.threadsByKey();
                if (chunks.get(i).size() <= heap / 16) {
                    waitingBytes -= chunks.get(i).size();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static ByteBuffer copy(FileChannel ch, Chunk c) throws IOException {
        ByteBuffer b = ByteBuffer.allocate((int) c.size());
        while (b.hasRemaining()) {
            if (ch.read(b, c.offset() + b.position()) < 0) {
                throw new IOException("the file ended inside chunk at byte " + c.offset());
            }
        }
        return b.clear();
    }

    private static void handOver(DecodedChunk chunk, DecodedEvent view, Consumer<? super JfrEvent>[] handlers,
                                 Runnable onFlush) {
        long[] entries = chunk.entries;
        for (int i = 0; i < chunk.count; i++) {
            long entry = entries[i];
            if (entry == DecodedChunk.FLUSH) {
                if (onFlush != null) {
                    onFlush.run();
                }
                continue;
            }
            int h = (int) (entry >>> 32);
            view.at(chunk, chunk.layouts[h], (int) entry);
            handlers[h].accept(view);
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
