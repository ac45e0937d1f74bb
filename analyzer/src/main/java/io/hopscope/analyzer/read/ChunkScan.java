package io.hopscope.analyzer.read;

import io.hopscope.analyzer.read.chunk.DirectReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Checks a file's JFR chunk headers before any event is parsed.
 *
 * <p>Why: {@code EventStream.openFile} silently yields nothing for a file that is not a recording and
 * silently stops at a truncated chunk, and {@code RecordingFile} names neither the format nor the
 * point where the data ends. Walking the chunk headers (magic {@code FLR\0}, version, chunk size) is
 * cheap and lets the CLI say exactly what is wrong, and read the complete chunks of a recording whose
 * JVM was killed mid-write.
 */
public final class ChunkScan {

    private static final int HEADER_BYTES = 68;

    /**
     * What the headers say: complete chunks, bytes they cover, whether the file ends early, and
     * whether a chunk was never finished (its writer was killed, or is still writing).
     */
    public record Result(int completeChunks, long readableBytes, long fileBytes, int major, int minor,
                         boolean truncated, boolean unfinished, long startEpochNanos, long endEpochNanos,
                         int duplicateChunks) {
    }

    // Bytes 32 and 40 of a chunk header: its start (epoch ns) and duration (0 while unfinished).
    private static final int START_NANOS_OFFSET = 32;
    private static final int DURATION_NANOS_OFFSET = 40;
    private static final int START_TICKS_OFFSET = 48;

    // Byte 64 of a chunk header is 0 once the chunk is finished; while the JVM writes it, it counts
    // the flushes (0xff while the header is rewritten). A JVM killed mid-recording leaves it non-zero.
    private static final int FILE_STATE_OFFSET = 64;

    private ChunkScan() {
    }

    public static Result scan(Path file) throws RecordingProblem {
        long size;
        try {
            size = Files.size(file);
        } catch (NoSuchFileException e) {
            throw new RecordingProblem(file + ": no such file");
        } catch (IOException e) {
            throw new RecordingProblem(file + ": cannot read: " + e.getMessage());
        }
        if (Files.isDirectory(file)) {
            throw new RecordingProblem(file + ": is a directory, not a jfr recording");
        }
        if (size == 0) {
            throw new RecordingProblem(file + ": empty file, not a jfr recording");
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
            long pos = 0;
            int chunks = 0;
            int major = -1;
            int minor = -1;
            boolean unfinished = false;
            long start = 0;
            long end = 0;
            int duplicates = 0;
            Set<ChunkKey> seen = new HashSet<>();
            while (pos < size) {
                header.clear();
                int n = ch.read(header, pos);
                header.flip();
                if (chunks == 0 && n >= 2 && (header.get(0) & 0xff) == 0x1f && (header.get(1) & 0xff) == 0x8b) {
                    throw new RecordingProblem(file + ": " + describeGzip(file));
                }
                if (n < 8 || header.getInt(0) != 0x464c5200) {
                    if (chunks == 0) {
                        throw new RecordingProblem(file + ": not a jfr recording (no FLR magic at the start)");
                    }
                    // Garbage after complete chunks: treat as truncation of a following chunk.
                    return new Result(chunks, pos, size, major, minor, true, unfinished, start, end, duplicates);
                }
                int chunkMajor = header.getShort(4);
                int chunkMinor = header.getShort(6);
                if (chunks == 0) {
                    major = chunkMajor;
                    minor = chunkMinor;
                    if (major < 1 || major > 2) {
                        throw new RecordingProblem(file + ": jfr format " + major + "." + minor
                                + " is not supported (this JDK reads formats 1.x and 2.x, JDK 9 and newer)");
                    }
                }
                long chunkSize = n >= 16 ? header.getLong(8) : 0;
                if (n >= HEADER_BYTES && major >= 2 && header.get(FILE_STATE_OFFSET) != 0) {
                    unfinished = true;
                }
                if (n < HEADER_BYTES || chunkSize < HEADER_BYTES || pos + chunkSize > size) {
                    if (chunks == 0) {
                        throw new RecordingProblem(file + ": truncated recording, its first chunk is incomplete ("
                                + size + " of " + (chunkSize >= HEADER_BYTES ? chunkSize : "?")
                                + " bytes), nothing readable");
                    }
                    return new Result(chunks, pos, size, major, minor, true, unfinished, start, end, duplicates);
                }
                long chunkStart = header.getLong(START_NANOS_OFFSET);
                if (chunks == 0) {
                    start = chunkStart;
                }
                end = Math.max(end, chunkStart + Math.max(0, header.getLong(DURATION_NANOS_OFFSET)));
                if (!seen.add(ChunkKey.of(header))) {
                    duplicates++;
                }
                pos += chunkSize;
                chunks++;
            }
            return new Result(chunks, pos, size, major, minor, false, unfinished, start, end, duplicates);
        } catch (IOException e) {
            throw new RecordingProblem(file + ": cannot read: " + e.getMessage());
        }
    }

    // A chunk's identity: its size, start time and start ticks. A JVM writes each chunk once; a
    // second one with the same header is a copy (a file glued together from pieces twice).
    private record ChunkKey(long size, long startNanos, long durationNanos, long startTicks) {
        static ChunkKey of(ByteBuffer header) {
            return new ChunkKey(header.getLong(8), header.getLong(START_NANOS_OFFSET), header.getLong(DURATION_NANOS_OFFSET),
                    header.getLong(START_TICKS_OFFSET));
        }
    }

    /**
     * Copies the complete chunks of {@code file} into {@code copy}, each once (the first of copies of a
     * chunk stands): the JDK's parser would read a repeated chunk's events again, and its requests
     * would be counted twice.
     */
    public static void writeWithoutDuplicates(Path file, Path copy) throws IOException {
        List<DirectReader.Chunk> chunks = uniqueChunks(file);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(copy, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                     StandardOpenOption.TRUNCATE_EXISTING)) {
            for (DirectReader.Chunk chunk : chunks) {
                for (long done = 0; done < chunk.size(); ) {
                    done += in.transferTo(chunk.offset() + done, chunk.size() - done, out);
                }
            }
        }
    }

    /**
     * The complete chunks of {@code file}, each once (the first of copies of a chunk stands), as
     * {@link #writeWithoutDuplicates} copies them: what the direct reader reads in place.
     */
    public static List<DirectReader.Chunk> uniqueChunks(Path file) throws IOException {
        List<DirectReader.Chunk> chunks = new ArrayList<>();
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
            Set<ChunkKey> seen = new HashSet<>();
            long size = in.size();
            for (long pos = 0; pos < size; ) {
                header.clear();
                if (in.read(header, pos) < HEADER_BYTES || header.getInt(0) != 0x464c5200) {
                    break;
                }
                long chunkSize = header.getLong(8);
                if (chunkSize < HEADER_BYTES || pos + chunkSize > size) {
                    break;
                }
                if (seen.add(ChunkKey.of(header))) {
                    chunks.add(new DirectReader.Chunk(pos, chunkSize));
                }
                pos += chunkSize;
            }
        }
        return chunks;
    }

    // JRockit-era recordings (JDK 7u40, 8 before 8u262) were written gzip-compressed, format 0.9.
    private static String describeGzip(Path file) {
        try (InputStream in = new DataInputStream(new GZIPInputStream(Files.newInputStream(file)))) {
            byte[] b = in.readNBytes(8);
            if (b.length == 8 && b[0] == 'F' && b[1] == 'L' && b[2] == 'R' && b[3] == 0) {
                int major = ((b[4] & 0xff) << 8) | (b[5] & 0xff);
                int minor = ((b[6] & 0xff) << 8) | (b[7] & 0xff);
                return "gzip-compressed jfr format " + major + "." + minor
                        + " (jdk 7/8, jrockit era) is not supported; record with jdk 11 or newer";
            }
            return "gzip-compressed file, not a jfr recording";
        } catch (IOException e) {
            return "gzip-compressed file that cannot be read, not a jfr recording";
        }
    }
}
