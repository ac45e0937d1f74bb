package io.hopscope.analyzer.read.chunk;

/**
 * An open-addressing map from long keys to int values (a constant pool's ids to their positions in the
 * chunk), with an object beside each key for what was resolved of it: no boxing for the many ids a
 * chunk's pools hold.
 */
final class LongIntTable {

    private static final int FREE = -1;

    private long[] keys;
    private int[] values;
    private Object[] objects;
    private int size;

    LongIntTable() {
        keys = new long[16];
        values = new int[16];
        objects = new Object[16];
        java.util.Arrays.fill(values, FREE);
    }

    int size() {
        return size;
    }

    private int slot(long key) {
        int mask = keys.length - 1;
        int i = (int) (mix(key) & mask);
        while (values[i] != FREE && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private static long mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 32);
    }

    /** The position of {@code key}, or -1. */
    int get(long key) {
        return values[slot(key)];
    }

    boolean containsKey(long key) {
        return values[slot(key)] != FREE;
    }

    /** Puts {@code key} at {@code value} (not negative), replacing a value before and forgetting its object. */
    void put(long key, int value) {
        int i = slot(key);
        if (values[i] == FREE) {
            keys[i] = key;
            size++;
            values[i] = value;
            if (size * 2 > keys.length) {
                grow();
            }
            return;
        }
        values[i] = value;
        objects[i] = null;
    }

    Object object(long key) {
        int i = slot(key);
        return values[i] == FREE ? null : objects[i];
    }

    void setObject(long key, Object o) {
        int i = slot(key);
        if (values[i] != FREE) {
            objects[i] = o;
        }
    }

    /** Each key, in no particular order. */
    void forEachKey(java.util.function.LongConsumer action) {
        for (int i = 0; i < keys.length; i++) {
            if (values[i] != FREE) {
                action.accept(keys[i]);
            }
        }
    }

    private void grow() {
        long[] k = keys;
        int[] v = values;
        Object[] o = objects;
        keys = new long[k.length * 2];
        values = new int[k.length * 2];
        objects = new Object[k.length * 2];
        java.util.Arrays.fill(values, FREE);
        for (int i = 0; i < k.length; i++) {
            if (v[i] != FREE) {
                int s = slot(k[i]);
                keys[s] = k[i];
                values[s] = v[i];
                objects[s] = o[i];
            }
        }
    }
}
