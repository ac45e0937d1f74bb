package io.hopscope.analyzer.read.chunk;

/**
 * JFR's string encodings, as the JDK's {@code StringParser} reads them: a byte saying which, then
 * nothing (null, empty), a constant-pool id, or a size and UTF-8 bytes, chars, or Latin-1 bytes.
 */
final class Strings {

    static final byte NULL = 0;
    static final byte EMPTY = 1;
    static final byte POOL = 2;
    static final byte UTF8 = 3;
    static final byte CHARS = 4;
    static final byte LATIN1 = 5;

    private Strings() {
    }

    /** A string written in place (the metadata's); a pool reference is an error there. */
    static String readUnpooled(ChunkInput in) {
        byte encoding = in.readByte();
        if (encoding == POOL) {
            throw new ChunkFormatException("a constant-pool string where none can be, at byte " + (in.pos - 1));
        }
        return readInPlace(in, encoding);
    }

    /** The string of an encoding other than {@link #POOL}. */
    static String readInPlace(ChunkInput in, byte encoding) {
        switch (encoding) {
            case NULL:
                return null;
            case EMPTY:
                return "";
            case UTF8:
                return in.utf8(in.readSize("a string"));
            case LATIN1:
                return in.latin1(in.readSize("a string"));
            case CHARS: {
                int n = in.readSize("a string");
                String ascii = in.asciiChars(n);
                if (ascii != null) {
                    return ascii;
                }
                char[] c = new char[n];
                for (int i = 0; i < n; i++) {
                    c[i] = in.readChar();
                }
                return new String(c);
            }
            default:
                throw new ChunkFormatException("unknown string encoding " + encoding + " at byte " + (in.pos - 1));
        }
    }

    static void skip(ChunkInput in) {
        byte encoding = in.readByte();
        switch (encoding) {
            case NULL, EMPTY -> {
            }
            case POOL -> in.readLong();
            case UTF8, LATIN1 -> in.skip(in.readSize("a string"));
            case CHARS -> in.skipChars(in.readSize("a string"));
            default -> throw new ChunkFormatException("unknown string encoding " + encoding + " at byte " + (in.pos - 1));
        }
    }
}
