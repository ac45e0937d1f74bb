package io.hopscope.analyzer.read;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import jdk.jfr.EventType;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedObject;

/**
 * Reads a fixed list of fields of one event type by position: the reader of the analyzer's hot
 * events (millions a file), where {@code jdk.jfr.consumer}'s only read, by name, is a walk over the
 * type's fields with a string comparison each (about 46 ns a read, a quarter of {@code report}'s
 * main thread on the agent's recordings).
 *
 * <p>The parser keeps an event's values in the private array {@code RecordedObject.objects}, in
 * the order of {@link RecordedEvent#getFields()} after the start time and (when the type has one)
 * the duration, which are kept apart; the same from JDK 17 to 25. The analyzer's jar opens
 * {@code jdk.jfr.consumer} to itself ({@code Add-Opens} in its manifest, honoured by
 * {@code java -jar}); anywhere else (the classes on a plain class path), or should a JDK change that
 * layout, it reads by name as before. A type's positions are checked once, on its first event, against
 * the read by name; a field whose value differs (a struct the API wraps on each read) is read by name.
 *
 * <p>The direct decoder's events ({@link IndexedEvent}) are read by their index in the chunk's type, found
 * once per type. One instance per event type and handler: it remembers the last type seen (a new one
 * per chunk).
 */
public final class EventFields {

    private static final VarHandle VALUES = valuesHandle();
    private static final int BY_NAME = -2;
    private static final int ABSENT = -1;

    private final String[] names;
    private EventType type;
    private int[] positions;
    private Object indexedLayout;
    private int[] indexes;

    /** Reads {@code names}, by their index in this list. */
    public EventFields(String... names) {
        this.names = names.clone();
    }

    /** Whether fields are read by position in this JVM (the jar opened {@code jdk.jfr.consumer}). */
    public static boolean byPosition() {
        return VALUES != null;
    }

    private static VarHandle valuesHandle() {
        try {
            return MethodHandles.privateLookupIn(RecordedObject.class, MethodHandles.lookup())
                    .findVarHandle(RecordedObject.class, "objects", Object[].class);
        } catch (IllegalAccessException | NoSuchFieldException | RuntimeException notOpenedOrChanged) {
            return null;
        }
    }

    /** The value of field {@code i}, as {@link JfrEvent#value(String)} gives it; null when absent. */
    public Object value(JfrEvent e, int i) {
        if (e instanceof IndexedEvent d) {
            int at = indexOf(d, i);
            return at < 0 ? null : d.valueAt(at);
        }
        if (e instanceof JdkEvent j) {
            return j.wrap(value(j.recorded(), i));
        }
        return e.value(names[i]);
    }

    private Object value(RecordedEvent e, int i) {
        EventType t = e.getEventType();
        if (t != type) {
            positions = layout(e);
            type = t;
        }
        int at = positions[i];
        if (at >= 0) {
            return ((Object[]) VALUES.get(e))[at];
        }
        return at == ABSENT ? null : byName(e, names[i]);
    }

    private int indexOf(IndexedEvent e, int i) {
        Object layout = e.layout();
        if (layout != indexedLayout) {
            int[] at = new int[names.length];
            for (int n = 0; n < names.length; n++) {
                at[n] = e.fieldIndex(names[n]);
            }
            indexes = at;
            indexedLayout = layout;
        }
        return indexes[i];
    }

    public String string(JfrEvent e, int i) {
        return value(e, i) instanceof String s ? s : null;
    }

    public long longValue(JfrEvent e, int i, long absent) {
        if (e instanceof IndexedEvent d) {
            int at = indexOf(d, i);
            return at < 0 ? absent : d.longAt(at, absent);
        }
        Object v = value(e, i);
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
                ? ((Number) v).longValue() : absent;
    }

    public int intValue(JfrEvent e, int i, int absent) {
        if (e instanceof IndexedEvent d) {
            int at = indexOf(d, i);
            return at < 0 ? absent : d.intAt(at, absent);
        }
        Object v = value(e, i);
        return v instanceof Integer || v instanceof Short || v instanceof Byte ? ((Number) v).intValue() : absent;
    }

    public boolean booleanValue(JfrEvent e, int i) {
        if (e instanceof IndexedEvent d) {
            int at = indexOf(d, i);
            return at >= 0 && d.booleanAt(at);
        }
        return value(e, i) instanceof Boolean b && b;
    }

    private static Object byName(RecordedEvent e, String name) {
        try {
            return e.getValue(name);
        } catch (IllegalArgumentException absent) {
            return null;
        }
    }

    // Where each wanted field is in the event's value array (or ABSENT, or BY_NAME), checked against
    // the read by name on this first event of the type.
    private int[] layout(RecordedEvent e) {
        List<ValueDescriptor> fields = e.getFields();
        int[] at = new int[names.length];
        Object[] values = VALUES != null ? (Object[]) VALUES.get(e) : null;
        int kept = values != null ? fields.size() - values.length : 0; // start time, and duration
        for (int i = 0; i < names.length; i++) {
            at[i] = ABSENT;
            for (int f = 0; f < fields.size(); f++) {
                if (fields.get(f).getName().equals(names[i])) {
                    int p = f - kept;
                    boolean agrees = values != null && (kept == 1 || kept == 2) && p >= 0 && p < values.length
                            && values[p] == byName(e, names[i]);
                    at[i] = agrees ? p : BY_NAME;
                    break;
                }
            }
        }
        return at;
    }
}
