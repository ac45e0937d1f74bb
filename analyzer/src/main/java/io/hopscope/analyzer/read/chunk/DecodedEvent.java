package io.hopscope.analyzer.read.chunk;

import io.hopscope.analyzer.read.IndexedEvent;
import io.hopscope.analyzer.read.JfrStack;
import io.hopscope.analyzer.read.JfrThread;

/**
 * The direct decoder's {@link io.hopscope.analyzer.read.JfrEvent}: a flyweight over one record of a
 * {@link DecodedChunk}, moved from event to event as the pass hands them over. Constant-pool values are
 * resolved when read, on the pass's thread.
 */
final class DecodedEvent implements IndexedEvent {

    private DecodedChunk chunk;
    private EventLayout layout;
    private int numbers;
    private int objects;

    void at(DecodedChunk chunk, EventLayout layout, int numbers, int objects) {
        this.chunk = chunk;
        this.layout = layout;
        this.numbers = numbers;
        this.objects = objects;
    }

    @Override
    public String typeName() {
        return layout.type.name;
    }

    @Override
    public long startNanos() {
        return chunk.prims[numbers + 1];
    }

    @Override
    public long endNanos() {
        return chunk.prims[numbers + 2];
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
                return chunk.refs[objects + layout.slot[index]];
            case EventLayout.POOL: {
                long key = chunk.prims[numbers + layout.slot[index]];
                return chunk.pools.resolve(f.type, key);
            }
            default: {
                long v = chunk.prims[numbers + layout.slot[index]];
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
                ? chunk.prims[numbers + layout.slot[index]] : absent;
    }

    @Override
    public int intAt(int index, int absent) {
        if (index < layout.startIndex || layout.storage[index] != EventLayout.NUMBER) {
            return absent;
        }
        int kind = layout.type.fields.get(index).type.kind;
        return kind == Metadata.INT || kind == Metadata.SHORT || kind == Metadata.BYTE
                ? (int) chunk.prims[numbers + layout.slot[index]] : absent;
    }

    @Override
    public boolean booleanAt(int index) {
        return index >= layout.startIndex && layout.storage[index] == EventLayout.NUMBER
                && layout.type.fields.get(index).type.kind == Metadata.BOOLEAN && chunk.prims[numbers + layout.slot[index]] != 0;
    }
}
