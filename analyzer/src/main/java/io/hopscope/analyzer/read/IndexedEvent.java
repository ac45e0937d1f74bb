package io.hopscope.analyzer.read;

/**
 * A {@link JfrEvent} whose fields are read by their index in the event's type (the direct decoder's):
 * {@link EventFields} finds a field's index once per type, then reads without a lookup by name.
 */
public interface IndexedEvent extends JfrEvent {

    /** The event's type as decoded in its chunk: the key under which a field's index stays valid. */
    Object layout();

    /** A field's index in the type, -1 when the type has none of that name. */
    int fieldIndex(String name);

    /** The value at {@code index}, as {@link #value(String)} gives it. */
    Object valueAt(int index);

    /** An integral field (long, int, short, byte) at {@code index}, else {@code absent}. */
    long longAt(int index, long absent);

    /** An int, short or byte field at {@code index}, else {@code absent}. */
    int intAt(int index, int absent);

    /** A boolean field at {@code index} that is true. */
    boolean booleanAt(int index);
}
