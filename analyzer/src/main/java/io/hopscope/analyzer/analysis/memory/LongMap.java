package io.hopscope.analyzer.analysis.memory;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * An open-addressing map from a long key (a request id) to a value, with no boxing and no entry
 * object per mapping: the single pass looks a request up for every event of the file, millions of
 * times, and a {@code HashMap<Long, ?>} allocated a {@code Long} for each lookup.
 *
 * <p>Linear probing with backward-shift deletion (no tombstones, so a long run of puts and removes
 * keeps probes short). Not thread-safe.
 */
public final class LongMap<V> {

    private long[] keys;
    private Object[] values;
    private int size;
    private int mask;

    public LongMap() {
        this(64);
    }

    public LongMap(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    @SuppressWarnings("unchecked")
    public V get(long key) {
        for (int i = slot(key); ; i = (i + 1) & mask) {
            Object v = values[i];
            if (v == null) {
                return null;
            }
            if (keys[i] == key) {
                return (V) v;
            }
        }
    }

    public boolean containsKey(long key) {
        return get(key) != null;
    }

    /** Maps {@code key} to {@code value} (not null), replacing any previous value. */
    public void put(long key, V value) {
        if (value == null) {
            throw new NullPointerException("null value for key " + key);
        }
        int i = slot(key);
        while (values[i] != null) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        if (++size > (mask + 1) * 3 / 4) {
            grow();
        }
    }

    @SuppressWarnings("unchecked")
    public V remove(long key) {
        int i = slot(key);
        while (values[i] != null) {
            if (keys[i] == key) {
                V old = (V) values[i];
                shiftBack(i);
                size--;
                return old;
            }
            i = (i + 1) & mask;
        }
        return null;
    }

    public void clear() {
        if (size > 0) {
            Arrays.fill(values, null);
            size = 0;
        }
    }

    public void forEachValue(Consumer<? super V> action) {
        forEachNonNull(values, action);
    }

    /** Each value of a table that marks a free slot with null ({@link IdRingMap}'s ring too), in slot order. */
    static <V> void forEachNonNull(Object[] values, Consumer<? super V> action) {
        for (Object v : values) {
            if (v != null) {
                @SuppressWarnings("unchecked")
                V value = (V) v;
                action.accept(value);
            }
        }
    }

    /** Each key with its value, in no particular order. */
    public void forEachKeyAndValue(KeyValueConsumer<? super V> action) {
        forEachNonNull(keys, values, action);
    }

    /** Each key with its value of a table that marks a free slot with a null value ({@link IdRingMap}'s ring too). */
    static <V> void forEachNonNull(long[] keys, Object[] values, KeyValueConsumer<? super V> action) {
        for (int i = 0; i < keys.length; i++) {
            if (values[i] != null) {
                @SuppressWarnings("unchecked")
                V value = (V) values[i];
                action.accept(keys[i], value);
            }
        }
    }

    /** A long key and its value. */
    public interface KeyValueConsumer<V> {
        void accept(long key, V value);
    }

    // Close the gap at `free`: move back every later entry of the run whose home slot is not between
    // the gap and itself (cyclically), so that every key stays reachable from its home slot.
    private void shiftBack(int free) {
        int i = free;
        while (true) {
            i = (i + 1) & mask;
            if (values[i] == null) {
                break;
            }
            int home = slot(keys[i]);
            boolean stays = free <= i ? free < home && home <= i : free < home || home <= i;
            if (!stays) {
                keys[free] = keys[i];
                values[free] = values[i];
                free = i;
            }
        }
        values[free] = null;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldValues.length * 2];
        mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                int j = slot(oldKeys[i]);
                while (values[j] != null) {
                    j = (j + 1) & mask;
                }
                keys[j] = oldKeys[i];
                values[j] = oldValues[i];
            }
        }
    }

    // Request ids are sequential: mix the bits so that neighbours do not form one long probe run.
    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
