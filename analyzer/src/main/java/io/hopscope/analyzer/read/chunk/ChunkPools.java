package io.hopscope.analyzer.read.chunk;

import io.hopscope.analyzer.read.JfrClass;
import io.hopscope.analyzer.read.JfrFrame;
import io.hopscope.analyzer.read.JfrStack;
import io.hopscope.analyzer.read.JfrThread;
import java.util.AbstractList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One chunk's constant pools: where each id's value is, found by walking the chunk's checkpoint events
 * (linked backwards from the header's offset), and the values, decoded on first use. Every entry is
 * skipped over once when indexed, which checks the pools' structure as the JDK's eager parse does; a
 * stack trace is decoded only when its frames are asked for.
 *
 * <p>Threads follow one rule of the JDK's reader that a chunk read alone would not: an id that the
 * previous chunk's pool also had keeps the previous chunk's thread ({@code ChunkParser} reuses what it
 * resolved then), so a thread renamed between chunks keeps its old name there. {@link #inheritThreads}
 * applies it when the chunks are put back in file order. The other pools' ids name one thing for the
 * whole recording (classes, methods, symbols, stack traces, strings), so the rule changes nothing there.
 */
final class ChunkPools {

    static final String THREAD = "java.lang.Thread";
    static final String CLASS = "java.lang.Class";
    static final String STACK_TRACE = "jdk.types.StackTrace";

    // Whether the running JDK's RecordedThread knows virtual threads (JDK 21+), whose getters then differ.
    private static final boolean VIRTUAL_AWARE_THREADS = Runtime.version().feature() >= 21;

    private static final Object RESOLVING = new Object();
    private static final Object NULL = new Object();

    final Metadata metadata;
    final TimeBase time;
    private final ChunkInput in;
    private final Map<Long, LongIntTable> pools = new HashMap<>();
    private final Metadata.Type threadType;

    ChunkPools(Metadata metadata, TimeBase time, ChunkInput in) {
        this.metadata = metadata;
        this.time = time;
        this.in = in;
        Metadata.Type thread = null;
        for (Metadata.Type t : metadata.types.values()) {
            if (THREAD.equals(t.name)) {
                thread = t;
            }
        }
        this.threadType = thread;
    }

    /**
     * Indexes the checkpoints from the one at {@code lastOffset} (the header's) back to the first; an id
     * in several keeps the earliest one's value, as the JDK's reader, which walks them the same way.
     */
    void index(int lastOffset) {
        if (lastOffset == 0) {
            return;
        }
        int at = lastOffset;
        int walked = 0;
        long delta = -1;
        while (delta != 0) {
            if (at < 0 || at >= in.limit() || ++walked > in.limit()) {
                throw new ChunkFormatException("a checkpoint link points outside the chunk (byte " + at + ")");
            }
            in.pos = at;
            long size = in.readLong();
            long type = in.readLong();
            if (type != 1) {
                throw new ChunkFormatException("expected a checkpoint event at byte " + at + ", found event type " + type);
            }
            in.readLong(); // start
            in.readLong(); // duration
            delta = in.readLong();
            in.readByte(); // checkpoint type flags
            int poolCount = in.readInt();
            for (int p = 0; p < poolCount; p++) {
                long typeId = in.readLong();
                Metadata.Type t = metadata.types.get(typeId);
                if (t == null || t.kind == Metadata.UNKNOWN) {
                    throw new ChunkFormatException("constant pool of unknown type " + typeId + " at byte " + in.pos);
                }
                LongIntTable pool = pools.computeIfAbsent(typeId, k -> new LongIntTable());
                int count = in.readInt();
                if (count <= 0) {
                    throw new ChunkFormatException("constant pool " + t.name + " at byte " + in.pos + " has " + count
                            + " entries");
                }
                for (int j = 0; j < count; j++) {
                    long key = in.readLong();
                    pool.put(key, in.pos);
                    skipType(in, t, 0);
                }
            }
            if (in.pos != at + size) {
                throw new ChunkFormatException("the checkpoint at byte " + at + " is not the size it says");
            }
            at += (int) delta;
        }
    }

    /** Skips a value of field {@code f} at {@code from}'s position, checking its structure as a read would. */
    void skip(ChunkInput from, Metadata.Field f, int depth) {
        if (f.array) {
            int n = from.readSize("an array");
            for (int i = 0; i < n; i++) {
                skipOne(from, f, depth);
            }
        } else {
            skipOne(from, f, depth);
        }
    }

    private void skipOne(ChunkInput from, Metadata.Field f, int depth) {
        if (f.pool) {
            from.readLong();
        } else {
            skipType(from, f.type, depth);
        }
    }

    private void skipType(ChunkInput from, Metadata.Type t, int depth) {
        switch (t.kind) {
            case Metadata.BOOLEAN, Metadata.BYTE -> from.skip(1);
            case Metadata.SHORT -> from.readShort();
            case Metadata.CHAR -> from.readChar();
            case Metadata.INT -> from.readInt();
            case Metadata.LONG -> from.readLong();
            case Metadata.FLOAT -> from.skip(4);
            case Metadata.DOUBLE -> from.skip(8);
            case Metadata.STRING -> Strings.skip(from);
            case Metadata.STRUCT -> {
                if (depth > 32) {
                    throw new ChunkFormatException("type " + t.name + " nests deeper than 32 structs");
                }
                for (Metadata.Field f : t.fields) {
                    skip(from, f, depth + 1);
                }
            }
            default -> throw new ChunkFormatException("unknown primitive type " + t.name);
        }
    }

    /** Reads a value of field {@code f} at {@code from}'s position, as the JDK's parsers give it. */
    Object read(ChunkInput from, Metadata.Field f) {
        if (f.array) {
            int n = from.readSize("an array");
            Object[] a = new Object[n];
            for (int i = 0; i < n; i++) {
                a[i] = readOne(from, f);
            }
            return a;
        }
        return readOne(from, f);
    }

    private Object readOne(ChunkInput from, Metadata.Field f) {
        if (f.pool) {
            return resolve(f.type, from.readLong());
        }
        return readType(from, f.type);
    }

    Object readType(ChunkInput from, Metadata.Type t) {
        return switch (t.kind) {
            case Metadata.BOOLEAN -> from.readBoolean();
            case Metadata.BYTE -> from.readByte();
            case Metadata.SHORT -> from.readShort();
            case Metadata.CHAR -> from.readChar();
            case Metadata.INT -> from.readInt();
            case Metadata.LONG -> from.readLong();
            case Metadata.FLOAT -> from.readFloat();
            case Metadata.DOUBLE -> from.readDouble();
            case Metadata.STRING -> readString(from);
            case Metadata.STRUCT -> {
                if (t.simple) {
                    yield read(from, t.fields.get(0));
                }
                Object[] values = new Object[t.fields.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = read(from, t.fields.get(i));
                }
                yield new DecodedObject(t, values);
            }
            default -> throw new ChunkFormatException("unknown primitive type " + t.name);
        };
    }

    String readString(ChunkInput from) {
        byte encoding = from.readByte();
        if (encoding == Strings.POOL) {
            long key = from.readLong();
            return metadata.stringType == null ? null : resolve(metadata.stringType, key) instanceof String s ? s : null;
        }
        return Strings.readInPlace(from, encoding);
    }

    /** The value of pool {@code t}'s {@code key}: null when the chunk has none (as the JDK's reader, which logs it). */
    Object resolve(Metadata.Type t, long key) {
        LongIntTable pool = pools.get(t.id);
        if (pool == null) {
            return null;
        }
        Object seen = pool.object(key);
        if (seen != null) {
            return seen == NULL || seen == RESOLVING ? null : seen;
        }
        int at = pool.get(key);
        if (at < 0) {
            return null;
        }
        Object v;
        if (STACK_TRACE.equals(t.name)) {
            v = new DecodedStack(this, t, at);
        } else {
            pool.setObject(key, RESOLVING);
            int saved = in.pos;
            in.pos = at;
            try {
                v = typed(t, readType(in, t));
            } finally {
                in.pos = saved;
            }
        }
        pool.setObject(key, v == null ? NULL : v);
        return v;
    }

    private static Object typed(Metadata.Type t, Object value) {
        if (value instanceof DecodedObject o) {
            if (THREAD.equals(t.name)) {
                return new DecodedThread(o);
            }
            if (CLASS.equals(t.name)) {
                return new DecodedClass(o);
            }
        }
        return value;
    }

    /** The thread of {@code key}, or null. */
    JfrThread thread(long key) {
        return threadType == null ? null : resolve(threadType, key) instanceof JfrThread t ? t : null;
    }

    /**
     * Applies the JDK's reuse of the previous chunk's threads (see the class comment): call in file order,
     * before this chunk's events are handed over, with the previous chunk's {@link #threadsByKey}.
     */
    void inheritThreads(Map<Long, Object> previous) {
        if (previous == null || previous.isEmpty() || threadType == null) {
            return;
        }
        LongIntTable mine = pools.get(threadType.id);
        if (mine == null) {
            return;
        }
        mine.forEachKey(key -> {
            Object t = previous.get(key);
            if (t != null) {
                mine.setObject(key, t);
            }
        });
    }

    /**
     * Every thread of this chunk's pool by id (those it took from the chunk before included), for the next
     * chunk to inherit: small, where keeping the chunk itself would keep all its bytes.
     */
    Map<Long, Object> threadsByKey() {
        Map<Long, Object> threads = new HashMap<>();
        LongIntTable mine = threadType == null ? null : pools.get(threadType.id);
        if (mine != null) {
            // A thread that resolved to nothing is not reused: the JDK's reader reads the next chunk's own then.
            mine.forEachKey(key -> {
                Object t = resolve(threadType, key);
                if (t != null) {
                    threads.put(key, t);
                }
            });
        }
        return threads;
    }

    /**
     * Once the chunk's events are handed over: the stacks its events' handlers took are decoded (those
     * kept with a request would otherwise hold the whole chunk's bytes until its output is written), and
     * the index of the others goes.
     */
    void dropStackIndex() {
        for (Metadata.Type t : metadata.types.values()) {
            if (STACK_TRACE.equals(t.name)) {
                LongIntTable stacks = pools.remove(t.id);
                if (stacks != null) {
                    stacks.forEachKey(key -> {
                        if (stacks.object(key) instanceof DecodedStack s) {
                            s.decode();
                        }
                    });
                }
            }
        }
    }

    /** A struct value: a type and its field values, read by name. */
    record DecodedObject(Metadata.Type type, Object[] values) {
        Object get(String name) {
            int i = type.fieldIndex(name);
            return i < 0 ? null : values[i];
        }

        boolean has(String name) {
            return type.fieldIndex(name) >= 0;
        }
    }

    private static final class DecodedThread implements JfrThread {
        private final long javaThreadId;
        private final long osThreadId;
        private final String javaName;
        private final String osName;
        private final boolean virtual;

        DecodedThread(DecodedObject o) {
            virtual = o.get("virtual") instanceof Boolean b && b;
            long javaId = o.get("javaThreadId") instanceof Long l ? l : -1;
            long osId = o.get("osThreadId") instanceof Long l ? l : -1;
            if (VIRTUAL_AWARE_THREADS) {
                // RecordedThread from JDK 21 on (with isVirtual): no OS thread for a virtual thread, -1 for a Java id of 0.
                javaId = javaId == 0 ? -1 : javaId;
                osId = virtual ? -1 : osId;
            }
            javaThreadId = javaId;
            osThreadId = osId;
            javaName = o.get("javaName") instanceof String s ? s : null;
            osName = o.get("osName") instanceof String s ? s : null;
        }

        @Override
        public long javaThreadId() {
            return javaThreadId;
        }

        @Override
        public long osThreadId() {
            return osThreadId;
        }

        @Override
        public String javaName() {
            return javaName;
        }

        @Override
        public String osName() {
            return osName;
        }

        @Override
        public boolean isVirtual() {
            return virtual;
        }
    }

    private record DecodedClass(String name) implements JfrClass {
        // As RecordedClass#getName: JFR may write the internal form, java/lang/String.
        DecodedClass(DecodedObject o) {
            this(o.get("name") instanceof String s ? s.replace('/', '.') : null);
        }
    }

    /** A stack trace: where it is in its chunk, decoded on first use of its frames. */
    private static final class DecodedStack implements JfrStack {
        private ChunkPools pools;
        private Metadata.Type type;
        private final int at;
        private boolean truncated;
        private List<JfrFrame> frames;

        DecodedStack(ChunkPools pools, Metadata.Type type, int at) {
            this.pools = pools;
            this.type = type;
            this.at = at;
        }

        private void decode() {
            if (frames != null) {
                return;
            }
            ChunkInput in = pools.in;
            int saved = in.pos;
            in.pos = at;
            Object v;
            try {
                v = pools.readType(in, type);
            } finally {
                in.pos = saved;
            }
            DecodedObject o = v instanceof DecodedObject d ? d : null;
            truncated = o == null || !(o.get("truncated") instanceof Boolean b) || b;
            Object[] array = o != null && o.get("frames") instanceof Object[] a ? a : new Object[0];
            JfrFrame[] list = new JfrFrame[array.length];
            for (int i = 0; i < array.length; i++) {
                list[i] = new DecodedFrame(array[i] instanceof DecodedObject f ? f : null);
            }
            frames = new AbstractList<>() {
                @Override
                public JfrFrame get(int index) {
                    return list[index];
                }

                @Override
                public int size() {
                    return list.length;
                }
            };
            pools = null;
            type = null;
        }

        @Override
        public boolean isTruncated() {
            decode();
            return truncated;
        }

        @Override
        public List<JfrFrame> frames() {
            decode();
            return frames;
        }
    }

    private record DecodedFrame(DecodedObject frame) implements JfrFrame {
        private DecodedObject method() {
            return frame != null && frame.get("method") instanceof DecodedObject m ? m : null;
        }

        @Override
        public boolean hasMethod() {
            return method() != null;
        }

        @Override
        public String typeName() {
            DecodedObject m = method();
            return m != null && m.get("type") instanceof JfrClass c ? c.name() : null;
        }

        @Override
        public String methodName() {
            DecodedObject m = method();
            return m != null && m.get("name") instanceof String s ? s : null;
        }

        @Override
        public int lineNumber() {
            return frame != null && frame.get("lineNumber") instanceof Integer i ? i : -1;
        }
    }
}
