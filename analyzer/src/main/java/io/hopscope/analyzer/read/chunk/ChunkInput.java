package io.hopscope.analyzer.read.chunk;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads one chunk's bytes (positions from the chunk's start): raw values big-endian, and integers
 * (short, char, int, long) compressed when the chunk header's flag says so, as HotSpot writes them: 7
 * bits a byte, least significant first, the high bit set when more follow, and a ninth byte taken
 * whole. Every read is bounds-checked by the buffer: a value running past the chunk fails, never wraps.
 */
final class ChunkInput {

    private final ByteBuffer bytes;
    private final boolean compressed;
    int pos;

    ChunkInput(ByteBuffer bytes, boolean compressed) {
        this.bytes = bytes;
        this.compressed = compressed;
    }

    int limit() {
        return bytes.limit();
    }

    byte readByte() {
        return bytes.get(pos++);
    }

    boolean readBoolean() {
        return bytes.get(pos++) != 0;
    }

    long readLong() {
        if (!compressed) {
            long v = bytes.getLong(pos);
            pos += 8;
            return v;
        }
        long ret = 0;
        for (int shift = 0; shift < 56; shift += 7) {
            byte b = bytes.get(pos++);
            ret += (b & 0x7FL) << shift;
            if (b >= 0) {
                return ret;
            }
        }
        return ret + ((bytes.get(pos++) & 0xFFL) << 56);
    }

    int readInt() {
        if (!compressed) {
            int v = bytes.getInt(pos);
            pos += 4;
            return v;
        }
        return (int) readLong();
    }

    short readShort() {
        if (!compressed) {
            short v = bytes.getShort(pos);
            pos += 2;
            return v;
        }
        return (short) readLong();
    }

    char readChar() {
        if (!compressed) {
            char v = bytes.getChar(pos);
            pos += 2;
            return v;
        }
        return (char) readLong();
    }

    float readFloat() {
        float v = bytes.getFloat(pos);
        pos += 4;
        return v;
    }

    double readDouble() {
        double v = bytes.getDouble(pos);
        pos += 8;
        return v;
    }

    long rawLong(int at) {
        return bytes.getLong(at);
    }

    short rawShort(int at) {
        return bytes.getShort(at);
    }

    byte rawByte(int at) {
        return bytes.get(at);
    }

    /** A count or size read before that many items: refused when the chunk cannot hold them. */
    int readSize(String what) {
        int n = readInt();
        if (n < 0 || n > bytes.limit() - pos) {
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

    private String text(int size, java.nio.charset.Charset charset) {
        byte[] b = new byte[size];
        bytes.get(pos, b);
        pos += size;
        return new String(b, charset);
    }

    void skip(int n) {
        if (n < 0 || n > bytes.limit() - pos) {
            throw new ChunkFormatException("a value of " + n + " bytes at byte " + pos + " exceeds the chunk");
        }
        pos += n;
    }
}
