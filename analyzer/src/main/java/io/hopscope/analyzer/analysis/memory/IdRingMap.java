package io.hopscope.analyzer.analysis.memory;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A map from a long key that comes in rising sequence (a request id) to a value: each key in the slot
 * its low bits name, in a ring, and a {@link LongMap} for a key whose slot another key holds. The
 * requests in flight are a window of ids, so their slots are neighbours: a lookup of a recent request,
 * the removal of an old one and the store of a new one touch memory a hashed table would scatter
 * (in {@link LongMap}, remove cost 140 ns a request on a 240 MB recording, and each store of a new
 * request into the table took G1's slow write barrier, a card of its own each time).
 *
 * <p>The ring doubles when the overflow holds a quarter of it while the ring is half full, so a wider
 * window of ids in flight (a larger heap keeps more ended requests waiting) moves back into the ring.
 * Any keys are right, only slower when they are not such a window. Not thread-safe.
 */
public final class IdRingMap<V> {

    private long[] keys;
    private Object[] values;
    private int mask;
    private int inRing;
    private final LongMap<V> overflow = new LongMap<>();

    public IdRingMap(int capacity) {
        int c = Integer.highestOneBit(Math.max(16, capacity - 1)) << 1;
        keys = new long[c];
        values = new Object[c];
        mask = c - 1;
    }

    public int size() {
        return inRing + overflow.size();
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    @SuppressWarnings("unchecked")
    public V get(long key) {
        int i = (int) key & mask;
        Object v = values[i];
        if (v != null && keys[i] == key) {
            return (V) v;
        }
        return overflow.isEmpty() ? null : overflow.get(key);
    }

    /** Maps {@code key} to {@code value} (not null), replacing any previous value. */
    public void put(long key, V value) {
        if (value == null) {
            throw new NullPointerException("null value for key " + key);
        }
        int i = (int) key & mask;
        if (values[i] != null && keys[i] == key) {
            values[i] = value;
        } else if (!overflow.isEmpty() && overflow.containsKey(key)) {
            overflow.put(key, value);
        } else if (values[i] == null) {
            keys[i] = key;
            values[i] = value;
            inRing++;
        } else {
            overflow.put(key, value);
            // Only while the ring is well used: keys that are not a dense window (ids far apart) stay in
            // the overflow, a hashed map, instead of doubling the ring without end.
            if (overflow.size() > values.length / 4 && inRing > values.length / 2) {
                grow();
            }
        }
    }

    @SuppressWarnings("unchecked")
    public V remove(long key) {
        int i = (int) key & mask;
        Object v = values[i];
        if (v != null && keys[i] == key) {
            values[i] = null;
            inRing--;
            return (V) v;
        }
        return overflow.isEmpty() ? null : overflow.remove(key);
    }

    public void clear() {
        Arrays.fill(values, null);
        inRing = 0;
        overflow.clear();
    }

    public void forEachValue(Consumer<? super V> action) {
        LongMap.forEachNonNull(values, action);
        overflow.forEachValue(action);
    }

    // Twice the ring, everything put again: what collided may now have a slot of its own.
    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldValues.length * 2];
        mask = keys.length - 1;
        inRing = 0;
        LongMap<V> moved = new LongMap<>(overflow.size());
        overflow.forEachKeyAndValue(moved::put);
        overflow.clear();
        LongMap.<V>forEachNonNull(oldKeys, oldValues, this::put);
        moved.forEachKeyAndValue(this::put);
    }
}
