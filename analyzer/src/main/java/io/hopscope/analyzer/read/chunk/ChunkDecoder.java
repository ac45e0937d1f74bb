package io.hopscope.analyzer.read.chunk;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one chunk alone, on a worker thread: its header, its metadata, an index of its constant pools,
 * then its events from the header's end to the chunk's, the wanted ones checked and listed in a
 * {@link DecodedChunk} (decoded later, as they are handed over) and every other skipped by its size.
 * Checkpoints flagged as a flush point are listed among the events where the file has them: the JDK's
 * stream calls its flush handler there.
 */
final class ChunkDecoder {

    static final int HEADER_BYTES = 68;
    private static final int CHECKPOINT_TYPE = 1;
    private static final int FLUSH_FLAG = 1;

    private ChunkDecoder() {
    }

    /** Whether the chunk's integers are compressed (bit 0 of header byte 67). */
    static boolean compressed(ByteBuffer chunk) {
        return (chunk.get(67) & 1) != 0;
    }

    /** The chunk's own tick base, from its header. */
    static TimeBase ownTime(ByteBuffer chunk) {
        return TimeBase.of(chunk.getLong(32), chunk.getLong(48), chunk.getLong(56));
    }

    /** The chunk's metadata id (the JDK's reader keeps its parsers while it does not change). */
    static long metadataId(ByteBuffer chunk) {
        checkHeader(chunk);
        long metadataOffset = chunk.getLong(24);
        if (metadataOffset < HEADER_BYTES || metadataOffset >= chunk.limit()) {
            throw new ChunkFormatException("no metadata in the chunk (its header says byte " + metadataOffset + ")");
        }
        return Metadata.idAt(new ChunkInput(chunk, compressed(chunk)), (int) metadataOffset);
    }

    private static void checkHeader(ByteBuffer chunk) {
        if (chunk.limit() < HEADER_BYTES || chunk.getInt(0) != 0x464c5200) {
            throw new ChunkFormatException("no chunk header");
        }
        int major = chunk.getShort(4);
        if (major != 1 && major != 2) {
            throw new ChunkFormatException("jfr format " + major + "." + chunk.getShort(6) + " is not supported");
        }
        if (!compressed(chunk)) {
            // ChunkInput reads either way, but the JDK's reader, the reference, ignores the flag and reads
            // every integer compressed: for a file whose chunk clears it, the JDK's reading is the answer.
            throw new ChunkFormatException("the chunk header says its integers are not compressed");
        }
        long tps = chunk.getLong(56);
        if (tps <= 0) {
            throw new ChunkFormatException("the chunk header gives " + tps + " ticks a second");
        }
    }

    /** Decodes chunk {@code index} (bytes from its header), converting ticks with {@code time}. */
    static DecodedChunk decode(int index, ByteBuffer chunk, TimeBase time, List<String> wanted) {
        checkHeader(chunk);
        boolean compressed = compressed(chunk);
        long metadataOffset = chunk.getLong(24);
        long poolOffset = chunk.getLong(16);
        if (metadataOffset < HEADER_BYTES || metadataOffset >= chunk.limit()) {
            throw new ChunkFormatException("no metadata in the chunk (its header says byte " + metadataOffset + ")");
        }
        if (poolOffset < 0 || poolOffset >= chunk.limit()) {
            throw new ChunkFormatException("the chunk header's constant pool offset " + poolOffset + " is outside it");
        }
        Metadata metadata = Metadata.read(new ChunkInput(chunk, compressed), (int) metadataOffset);
        ChunkPools pools = new ChunkPools(metadata, time, new ChunkInput(chunk, compressed));
        pools.index((int) poolOffset);
        Map<Long, EventLayout> byType = new HashMap<>();
        EventLayout[] layouts = new EventLayout[wanted.size()];
        // HotSpot numbers types from 0 up, a few hundred: an array finds an event's layout without boxing its id.
        EventLayout[] byId = new EventLayout[1024];
        for (int h = 0; h < wanted.size(); h++) {
            Metadata.Type t = metadata.events.get(wanted.get(h));
            if (t != null) {
                layouts[h] = new EventLayout(t, h);
                byType.put(t.id, layouts[h]);
                if (t.id >= 0 && t.id < byId.length) {
                    byId[(int) t.id] = layouts[h];
                }
            }
        }
        DecodedChunk out = new DecodedChunk(index, pools, layouts, new ChunkInput(chunk, compressed));
        ChunkInput in = new ChunkInput(chunk, compressed);
        int end = chunk.limit();
        int pos = HEADER_BYTES;
        while (pos < end) {
            in.pos = pos;
            long size = in.readLong();
            if (size <= 0 || size > end - pos) {
                throw new ChunkFormatException("an event at byte " + pos + " says it has " + size + " bytes");
            }
            long type = in.readLong();
            EventLayout layout = type >= 0 && type < byId.length ? byId[(int) type] : byType.get(type);
            if (layout != null) {
                out.add(DecodedChunk.entry(layout.handler, in.pos));
                // Skipped here to check it reads (so that a chunk that does not is refused before any of its
                // events is handed over); decoded when handed over.
                in.readLong();
                if (layout.hasDuration) {
                    in.readLong();
                }
                List<Metadata.Field> fields = layout.type.fields;
                for (int i = layout.startIndex; i < fields.size(); i++) {
                    pools.skip(in, fields.get(i), 0);
                }
            } else if (type == CHECKPOINT_TYPE) {
                in.readLong(); // start
                in.readLong(); // duration
                in.readLong(); // delta to the previous checkpoint
                if ((in.readByte() & FLUSH_FLAG) != 0) {
                    out.flush();
                }
            }
            pos += (int) size;
        }
        return out;
    }
}
