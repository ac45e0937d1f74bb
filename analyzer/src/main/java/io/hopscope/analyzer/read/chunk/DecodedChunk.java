package io.hopscope.analyzer.read.chunk;

import java.util.Arrays;

/**
 * The wanted events of one chunk, decoded, in file order, with its flush points among them: what a
 * worker hands to the pass. Numbers (times, integral fields, constant-pool ids) go to one array and
 * strings and other objects to another, a record per event laid out by its type's {@link EventLayout};
 * a flush point is a record of its own. No object per event.
 */
final class DecodedChunk {

    static final int FLUSH = -1;

    final int index;
    final ChunkPools pools;
    final EventLayout[] layouts;
    long[] prims = new long[1024];
    Object[] refs = new Object[256];
    int primCount;
    int refCount;
    int events;

    DecodedChunk(int index, ChunkPools pools, EventLayout[] layouts) {
        this.index = index;
        this.pools = pools;
        this.layouts = layouts;
    }

    void flush() {
        ensurePrims(1);
        prims[primCount++] = FLUSH;
    }

    void ensurePrims(int n) {
        if (primCount + n > prims.length) {
            prims = Arrays.copyOf(prims, Math.max(prims.length * 2, primCount + n));
        }
    }

    void ensureRefs(int n) {
        if (refCount + n > refs.length) {
            refs = Arrays.copyOf(refs, Math.max(refs.length * 2, refCount + n));
        }
    }
}
