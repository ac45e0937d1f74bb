package io.hopscope.analyzer.analysis.memory;

import java.util.Arrays;

/**
 * The ids of the requests the single pass has finished, as sorted ranges of consecutive ids: the agent
 * numbers requests 1, 2, 3... per JVM (one {@code AtomicLong}), and they finish in about that order,
 * so the record costs one range per gap (a request still in flight below the highest finished id, or
 * an id whose events were never read), not one entry per request. Bounded: past {@link #MAX_RANGES}
 * the lowest quarter is dropped, and an id at or below the highest dropped one is then {@link #forgotten}.
 */
public final class FinishedIds {

    // 16 bytes a range: 16 MB at most, reached only with a million gaps at once.
    public static final int MAX_RANGES = 1 << 20;

    private final int maxRanges;
    // Inclusive, sorted, disjoint and never adjacent (adjacent ranges are merged).
    private long[] los = new long[16];
    private long[] his = new long[16];
    private int n;
    private long forgottenUpTo;

    public FinishedIds() {
        this(MAX_RANGES);
    }

    /** {@code maxRanges} at least 4 (tests use a small one). */
    public FinishedIds(int maxRanges) {
        this.maxRanges = maxRanges;
    }

    public void add(long id) {
        if (id <= forgottenUpTo) {
            return;
        }
        if (n > 0 && id > his[n - 1]) { // the common case: the highest id so far
            if (id == his[n - 1] + 1) {
                his[n - 1] = id;
            } else {
                insert(n, id);
            }
            return;
        }
        int i = rangeAtOrBelow(id);
        if (i >= 0 && id <= his[i]) {
            return;
        }
        boolean joinsBelow = i >= 0 && his[i] + 1 == id;
        boolean joinsAbove = i + 1 < n && los[i + 1] == id + 1;
        if (joinsBelow && joinsAbove) {
            his[i] = his[i + 1];
            System.arraycopy(los, i + 2, los, i + 1, n - i - 2);
            System.arraycopy(his, i + 2, his, i + 1, n - i - 2);
            n--;
        } else if (joinsBelow) {
            his[i] = id;
        } else if (joinsAbove) {
            los[i + 1] = id;
        } else {
            insert(i + 1, id);
        }
    }

    public boolean contains(long id) {
        int i = rangeAtOrBelow(id);
        return i >= 0 && id <= his[i];
    }

    /** Whether {@code id} is at or below the ranges dropped for memory: finished or not, it cannot be told. */
    public boolean forgotten(long id) {
        return id <= forgottenUpTo;
    }

    public int ranges() {
        return n;
    }

    private void insert(int at, long id) {
        if (n == maxRanges) {
            int dropped = maxRanges / 4;
            forgottenUpTo = his[dropped - 1];
            System.arraycopy(los, dropped, los, 0, n - dropped);
            System.arraycopy(his, dropped, his, 0, n - dropped);
            n -= dropped;
            at -= dropped;
            if (at < 0) {
                return; // among the ids just forgotten
            }
        }
        if (n == los.length) {
            los = Arrays.copyOf(los, Math.min(maxRanges, n * 2));
            his = Arrays.copyOf(his, Math.min(maxRanges, n * 2));
        }
        System.arraycopy(los, at, los, at + 1, n - at);
        System.arraycopy(his, at, his, at + 1, n - at);
        los[at] = id;
        his[at] = id;
        n++;
    }

    // The index of the last range starting at or below id, or -1.
    private int rangeAtOrBelow(long id) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (los[mid] <= id) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return lo - 1;
    }
}
