package io.hopscope.analyzer.read.chunk;

import java.util.Arrays;

/**
 * What a worker hands to the pass for one chunk: its pools, indexed, and where each wanted event is, in
 * file order, with its flush points among them; the events themselves stay in the mapped chunk and are
 * decoded one at a time as they are handed over ({@link DecodedEvent}). Eight bytes an event: a
 * gigabyte's chunks fit beside the pass in a small heap, which decoded values (four times the bytes of
 * the compressed ones) did not.
 */
final class DecodedChunk {

    static final long FLUSH = -1;

    final int index;
    final ChunkPools pools;
    final EventLayout[] layouts;
    final ChunkInput events;
    // Per event: its layout's index in the high half, the position of its start time in the low.
    long[] entries = new long[1024];
    int count;

    DecodedChunk(int index, ChunkPools pools, EventLayout[] layouts, ChunkInput events) {
        this.index = index;
        this.pools = pools;
        this.layouts = layouts;
        this.events = events;
    }

    void add(long entry) {
        if (count == entries.length) {
            entries = Arrays.copyOf(entries, entries.length * 2);
        }
        entries[count++] = entry;
    }

    void flush() {
        add(FLUSH);
    }

    static long entry(int layout, int position) {
        return ((long) layout << 32) | (position & 0xFFFFFFFFL);
    }
}
