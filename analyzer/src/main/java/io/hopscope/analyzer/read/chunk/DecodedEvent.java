package io.hopscope.analyzer.read.chunk;

import io.hopscope.analyzer.read.IndexedEvent;
import io.hopscope.analyzer.read.JfrStack;
import io.hopscope.analyzer.read.JfrThread;

/**
 * The direct decoder's {@link io.hopscope.analyzer.read.JfrEvent}: a flyweight moved from event to event
 * as the pass hands them over, each decoded from its chunk when it is ({@link #at}): times and numbers at
 * once, strings and constant-pool values when read, on the pass's thread. No object per event.
 */
final class DecodedEvent implements IndexedEvent {

    private DecodedChunk chunk;
    private EventLayout layout;
    // Start and end (epoch nanoseconds), then a slot per number, pool id or string position (EventLayout).
    private long[] numbers = new long[16];
    private Object[] objects = new Object[4];

    /** Decodes the event of {@code layout} whose start time is at {@code position} in {@code chunk}. */
    void at(DecodedChunk chunk, EventLayout layout, int position) {
        this.chunk = chunk;
        this.layout = layout;
        if (numbers.length < layout.numbers) {
            numbers = new long[layout.numbers];
        }
        if (objects.length < layout.objects) {
            objects = new Object[layout.objects];
        }
        ChunkInput in = chunk.events;
        in.pos = position;
        long startTicks = in.readLong();
        long endTicks = startTicks;
        if (layout.hasDuration) {
            endTicks += in.readLong();
        }
        TimeBase time = chunk.pools.time;
        long[] n = numbers;
        n[0] = time.timestamp(startTicks);
        n[1] = time.timestamp(endTicks);
        java.util.List<Metadata.Field> fields = layout.type.fields;
        for (int i = layout.startIndex; i < fields.size(); i++) {
            Metadata.Field f = fields.get(i);
            int slot = layout.slot[i];
            switch (layout.storage[i]) {
                case EventLayout.POOL -> n[slot] = in.readLong();
                case EventLayout.STRING -> {
                    n[slot] = in.pos;
                    Strings.skip(in);
                }
                case EventLayout.OBJECT -> objects[slot] = chunk.pools.read(in, f);
                default -> n[slot] = switch (f.type.kind) {
                    case Metadata.BOOLEAN -> in.readBoolean() ? 1 : 0;
                    case Metadata.BYTE -> in.readByte();
                    case Metadata.SHORT -> in.readShort();
                    case Metadata.CHAR -> in.readChar();
                    case Metadata.INT -> in.readInt();
                    case Metadata.LONG -> in.readLong();
                    case Metadata.FLOAT -> Float.floatToRawIntBits(in.readFloat());
                    case Metadata.DOUBLE -> Double.doubleToRawLongBits(in.readDouble());
                    default -> throw new ChunkFormatException("unknown primitive type " + f.type.name);
                };
            }
        }
    }

    @Override
    public String typeName() {
        return layout.type.name;
    }

    @Override
    public long startNanos() {
        return numbers[0];
    }

    @Override
    public long endNanos() {
        return numbers[1];
    }

    @Override
    public JfrThread thread() {
        return layout.eventThread < 0 ? null : valueAt(layout.eventThread) instanceof JfrThread t ? t : null;
    }

    @Override
    public JfrStack stackTrace() {
        return layout.stackTrace < 0 ? null : valueAt(layout.stackTrace) instanceof JfrStack s ? s : null;
    }

    @Override
    public boolean hasField(String name) {
        return layout.type.fieldIndex(name) >= 0;
    }

    @Override
    public Object value(String name) {
        int i = layout.type.fieldIndex(name);
        return i < 0 ? null : valueAt(i);
    }

    @Override
    public long timespanNanos(String name, long absent) {
        int i = layout.type.fieldIndex(name);
        if (i < 0) {
            return absent;
        }
        Object v = valueAt(i);
        long span;
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            span = ((Number) v).longValue();
        } else if (v instanceof Character c) {
            span = c;
        } else {
            throw new IllegalArgumentException("attempt to get field \"" + name + "\" as a duration");
        }
        // As RecordedObject#getDuration: the extremes are a duration that has no count of nanoseconds.
        if (span == 0) {
            return 0;
        }
        if (span == Long.MIN_VALUE || span == Long.MAX_VALUE) {
            throw new ArithmeticException("duration of field \"" + name + "\" overflows a long of nanoseconds");
        }
        String unit = layout.type.fields.get(i).timespan;
        if (unit == null) {
            throw new IllegalArgumentException("attempt to get field \"" + name + "\" with missing @Timespan");
        }
        return switch (unit) {
            case "MICROSECONDS" -> Math.multiplyExact(1000L, span);
            case "SECONDS" -> Math.multiplyExact(1_000_000_000L, span);
            case "MILLISECONDS" -> Math.multiplyExact(1_000_000L, span);
            case "NANOSECONDS" -> span;
            case "TICKS" -> chunk.pools.time.timespan(span);
            default -> throw new IllegalArgumentException("attempt to get field \"" + name + "\" with illegal timespan"
                    + " unit " + unit);
        };
    }

    @Override
    public Object layout() {
        return layout;
    }

    @Override
    public int fieldIndex(String name) {
        return layout.type.fieldIndex(name);
    }

    @Override
    public Object valueAt(int index) {
        if (index < layout.startIndex) {
            return null; // start time and duration: read as times
        }
        Metadata.Field f = layout.type.fields.get(index);
        switch (layout.storage[index]) {
            case EventLayout.OBJECT:
                return objects[layout.slot[index]];
            case EventLayout.POOL:
                return chunk.pools.resolve(f.type, numbers[layout.slot[index]]);
            case EventLayout.STRING: {
                ChunkInput in = chunk.events;
                in.pos = (int) numbers[layout.slot[index]];
                return chunk.pools.readString(in);
            }
            default: {
                long v = numbers[layout.slot[index]];
                return switch (f.type.kind) {
                    case Metadata.BOOLEAN -> v != 0;
                    case Metadata.BYTE -> (byte) v;
                    case Metadata.SHORT -> (short) v;
                    case Metadata.CHAR -> (char) v;
                    case Metadata.INT -> (int) v;
                    case Metadata.LONG -> v;
                    case Metadata.FLOAT -> Float.intBitsToFloat((int) v);
                    case Metadata.DOUBLE -> Double.longBitsToDouble(v);
                    default -> null;
                };
            }
        }
    }

    @Override
    public long longAt(int index, long absent) {
        if (index < layout.startIndex || layout.storage[index] != EventLayout.NUMBER) {
            return absent;
        }
        int kind = layout.type.fields.get(index).type.kind;
        return kind == Metadata.LONG || kind == Metadata.INT || kind == Metadata.SHORT || kind == Metadata.BYTE
                ? numbers[layout.slot[index]] : absent;
    }

    @Override
    public int intAt(int index, int absent) {
        if (index < layout.startIndex || layout.storage[index] != EventLayout.NUMBER) {
            return absent;
        }
        int kind = layout.type.fields.get(index).type.kind;
        return kind == Metadata.INT || kind == Metadata.SHORT || kind == Metadata.BYTE
                ? (int) numbers[layout.slot[index]] : absent;
    }

    @Override
    public boolean booleanAt(int index) {
        return index >= layout.startIndex && layout.storage[index] == EventLayout.NUMBER
                && layout.type.fields.get(index).type.kind == Metadata.BOOLEAN && numbers[layout.slot[index]] != 0;
    }
}
