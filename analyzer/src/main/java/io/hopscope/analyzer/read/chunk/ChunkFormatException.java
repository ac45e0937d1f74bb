package io.hopscope.analyzer.read.chunk;

/** What the direct decoder cannot read in a chunk: a lower-case sentence for the one line the CLI prints. */
public final class ChunkFormatException extends RuntimeException {

    public ChunkFormatException(String message) {
        super(message, null, false, false);
    }
}
