package io.hopscope.analyzer.read.chunk;

/**
 * How one wanted event type of a chunk is decoded: the fields after the start time (and the duration,
 * when the type has one: the JDK's reader takes the first two values as those) in the metadata's order,
 * each to a number slot (a value, a constant-pool id, or the position of a string, decoded when read)
 * or an object slot (arrays and structs, decoded at once).
 */
final class EventLayout {

    static final int NUMBER = 0;
    static final int POOL = 1;
    static final int STRING = 2;
    static final int OBJECT = 3;

    final Metadata.Type type;
    final int handler;
    final boolean hasDuration;
    final int startIndex;
    // Per field of the type (by its index; the first startIndex unused): how it is kept, and in which slot.
    final int[] storage;
    final int[] slot;
    final int numbers;
    final int objects;
    final int eventThread;
    final int stackTrace;

    EventLayout(Metadata.Type type, int handler) {
        this.type = type;
        this.handler = handler;
        this.hasDuration = type.fieldIndex("duration") >= 0;
        this.startIndex = hasDuration ? 2 : 1;
        int n = type.fields.size();
        storage = new int[n];
        slot = new int[n];
        int numbers = 2; // start and end
        int objects = 0;
        for (int i = startIndex; i < n; i++) {
            Metadata.Field f = type.fields.get(i);
            if (f.array || (!f.pool && f.type.kind == Metadata.STRUCT)) {
                storage[i] = OBJECT;
                slot[i] = objects++;
            } else {
                storage[i] = f.pool ? POOL : f.type.kind == Metadata.STRING ? STRING : NUMBER;
                slot[i] = numbers++;
            }
        }
        this.numbers = numbers;
        this.objects = objects;
        this.eventThread = type.fieldIndex("eventThread");
        this.stackTrace = type.fieldIndex("stackTrace");
    }
}
