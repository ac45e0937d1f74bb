package io.hopscope.analyzer.read.chunk;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Reads one chunk's bytes (positions from the chunk's start): raw values big-endian, and integers
 * (short, char, int, long) compressed when the chunk header's flag says so, as HotSpot writes them: 7
 * bits a byte, least significant first, the high bit set when more follow, and a ninth byte taken
 * whole. Over the chunk copied into the heap (a byte array reads several times faster than a mapped
 * buffer, whose every read checks its scope), or over the mapped file for a chunk too big to copy.
 * Every read is bounds-checked: a value running past the chunk fails, never wraps.
 */
final class ChunkInput {

    private final byte[] array;
    private final ByteBuffer bytes;
    private final boolean compressed;
    private final int limit;
    int pos;

    ChunkInput(ByteBuffer bytes, boolean compressed) {
        this.bytes = bytes;
        this.array = bytes.hasArray() && bytes.arrayOffset() == 0 ? bytes.array() : null;
        this.compressed = compressed;
        this.limit = bytes.limit();
    }

    int limit() {
        return limit;
    }

    private static ChunkFormatException pastEnd(int at) {
        return new ChunkFormatException("a value at byte " + at + " runs past the chunk's end");
    }

    byte readByte() {
        if (pos >= limit) {
            throw pastEnd(pos);
        }
        return array != null ? array[pos++] : bytes.get(pos++);
    }

    boolean readBoolean() {
        return readByte() != 0;
    }

    long readLong() {
        if (!compressed) {
            long v = rawLong(pos);
            pos += 8;
            return v;
        }
        byte[] a = array;
        int p = pos;
        if (a != null && p + 9 <= limit) {
            // Unrolled as the JDK's RecordingInput: most values are one or two bytes.
            byte b = a[p];
            long ret = b & 0x7FL;
            if (b >= 0) {
                pos = p + 1;
                return ret;
            }
            b = a[p + 1];
            ret += (b & 0x7FL) << 7;
            if (b >= 0) {
                pos = p + 2;
                return ret;
            }
            for (int i = 2, shift = 14; i < 8; i++, shift += 7) {
                b = a[p + i];
                ret += (b & 0x7FL) << shift;
                if (b >= 0) {
                    pos = p + i + 1;
                    return ret;
                }
            }
            pos = p + 9;
            return ret + ((a[p + 8] & 0xFFL) << 56);
        }
        long ret = 0;
        for (int shift = 0; shift < 56; shift += 7) {
            byte b = readByte();
            ret += (b & 0x7FL) << shift;
            if (b >= 0) {
                return ret;
            }
        }
        return ret + ((readByte() & 0xFFL) << 56);
    }

    int readInt() {
        if (!compressed) {
            check(pos, 4);
            int v = array != null ? ((array[pos] & 0xFF) << 24) | ((array[pos + 1] & 0xFF) << 16) | ((array[pos + 2] & 0xFF) << 8)
                    | (array[pos + 3] & 0xFF) : bytes.getInt(pos);
            pos += 4;
            return v;
        }
        return (int) readLong();
    }

    short readShort() {
        if (!compressed) {
            check(pos, 2);
            short v = array != null ? (short) (((array[pos] & 0xFF) << 8) | (array[pos + 1] & 0xFF)) : bytes.getShort(pos);
            pos += 2;
            return v;
        }
        return (short) readLong();
    }

    char readChar() {
        return compressed ? (char) readLong() : (char) readShort();
    }

    float readFloat() {
        check(pos, 4);
        int bits = array != null ? ((array[pos] & 0xFF) << 24) | ((array[pos + 1] & 0xFF) << 16)
                | ((array[pos + 2] & 0xFF) << 8) | (array[pos + 3] & 0xFF) : bytes.getInt(pos);
        pos += 4;
        return Float.intBitsToFloat(bits);
    }

    double readDouble() {
        double v = Double.longBitsToDouble(rawLong(pos));
        pos += 8;
        return v;
    }

    private void check(int at, int n) {
        if (at < 0 || at > limit - n) {
            throw pastEnd(at);
        }
    }

    long rawLong(int at) {
        check(at, 8);
        if (array == null) {
            return bytes.getLong(at);
        }
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (array[at + i] & 0xFFL);
        }
        return v;
    }

    /** A count or size read before that many items: refused when the chunk cannot hold them. */
    int readSize(String what) {
        int n = readInt();
        if (n < 0 || n > limit - pos) {
            throw new ChunkFormatException(what + " of " + n + " at byte " + pos + " exceeds the chunk");
        }
        return n;
    }

    String latin1(int size) {
        return text(size, StandardCharsets.ISO_8859_1);
    }

    String utf8(int size) {
        return text(size, StandardCharsets.UTF_8);
    }

    private String text(int size, Charset charset) {
        check(pos, size);
        String s;
        if (array != null) {
            s = new String(array, pos, size, charset);
        } else {
            byte[] b = new byte[size];
            bytes.get(pos, b);
            s = new String(b, charset);
        }
        pos += size;
        return s;
    }

    /**
     * Skips {@code n} compressed chars (the Java side of JFR writes an event's strings as chars, each a
     * varint): a scan for the bytes that end a value, not a decode of each.
     */
    void skipChars(int n) {
        if (!compressed || array == null) {
            for (int i = 0; i < n; i++) {
                readChar();
            }
            return;
        }
        byte[] a = array;
        int p = pos;
        for (int ended = 0; ended < n; p++) {
            if (p >= limit) {
                throw pastEnd(p);
            }
            if (a[p] >= 0) {
                ended++;
            }
        }
        pos = p;
    }

    /**
     * {@code n} compressed chars that are all ASCII (one byte each) as a string, or null (and nothing
     * read) when they are not: most of an event's strings, read without a decode per char.
     */
    String asciiChars(int n) {
        if (!compressed || array == null || n > limit - pos) {
            return null;
        }
        byte[] a = array;
        int end = pos + n;
        for (int p = pos; p < end; p++) {
            if (a[p] < 0) {
                return null;
            }
        }
        String s = new String(a, pos, n, StandardCharsets.ISO_8859_1);
        pos = end;
        return s;
    }

    void skip(int n) {
        if (n < 0 || n > limit - pos) {
            throw new ChunkFormatException("a value of " + n + " bytes at byte " + pos + " exceeds the chunk");
        }
        pos += n;
    }
}
