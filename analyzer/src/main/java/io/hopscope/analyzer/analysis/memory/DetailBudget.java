package io.hopscope.analyzer.analysis.memory;

/**
 * The bytes the requests' event lists (segments, hops, waits, spans, GC pauses, carrier names) may
 * hold at once, in flight and selected together. A request keeps lists only while they fit: one
 * begun when the budget is spent gets none, and one whose lists outgrow it drops them; its totals
 * stay exact either way. Bytes are estimates of the retained objects (64-bit JVM, compressed
 * references), counted as the lists grow and given back when a request's lists are dropped or it
 * leaves memory.
 */
public final class DetailBudget {

    // Shallow sizes of the list elements (12-byte header, 4-byte references, 8-byte alignment), plus
    // 8 bytes for its slot in an ArrayList (4, and the 1.5x growth's spare room). Strings and threads
    // in them are interned by the reader and shared: not counted.
    public static final long SEGMENT_BYTES = 56 + 8; // 2 refs, 4 longs
    public static final long HOP_BYTES = 56 + 8; // 4 refs, 3 longs
    public static final long WAIT_BYTES = 56 + 8; // 4 refs, 3 longs, a boolean
    public static final long SPAN_BYTES = 64 + 8; // 4 refs, 4 longs, an int
    public static final long GC_PAUSE_BYTES = 8; // the pause itself is shared with the other requests it overlaps
    public static final long CARRIER_NAME_BYTES = 80; // a String of its own, about 30 characters
    /** The four empty lists a request starts with (ArrayList 24 bytes, its array 16 + 4 a slot). */
    public static final long LISTS_BYTES = 4 * 24 + (16 + 12) + (16 + 12) + (16 + 4) + (16 + 8);

    private final long limitBytes;
    private long usedBytes;
    private long peakBytes;
    private long droppedRequests;
    // Called once the budget is spent, before a request is refused or cut: may give bytes back.
    private Runnable onFull = () -> { };

    public DetailBudget(long limitBytes) {
        this.limitBytes = limitBytes;
    }

    /** The default: a quarter of the heap the JVM may grow to, the rest for the reader and the totals. */
    public static long defaultLimitBytes() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    /** Bytes for a message: {@code 64 MiB}, {@code 12.3 MiB}, {@code 2 KiB}, {@code 100 B}. */
    public static String mib(long bytes) {
        String unit = bytes >= 1 << 20 ? "MiB" : bytes >= 1 << 10 ? "KiB" : "B";
        double value = bytes >= 1 << 20 ? bytes / (double) (1 << 20) : bytes >= 1 << 10 ? bytes / 1024.0 : bytes;
        String s = String.format(java.util.Locale.ROOT, "%.1f", value);
        return (s.endsWith(".0") ? s.substring(0, s.length() - 2) : s) + " " + unit;
    }

    public void onFull(Runnable relief) {
        this.onFull = relief;
    }

    public long limitBytes() {
        return limitBytes;
    }

    public long peakBytes() {
        return peakBytes;
    }

    /** Requests that were refused lists or lost them to the budget. */
    public long droppedRequests() {
        return droppedRequests;
    }

    /** Whether a request beginning now may keep lists; if not, it is counted as dropped. */
    public boolean admit() {
        if (fits(LISTS_BYTES)) {
            charge(LISTS_BYTES);
            return true;
        }
        droppedRequests++;
        return false;
    }

    /** Charges {@code bytes} for a request's lists; false (nothing charged) when they do not fit. */
    public boolean grow(long bytes) {
        if (!fits(bytes)) {
            droppedRequests++;
            return false;
        }
        charge(bytes);
        return true;
    }

    public void release(long bytes) {
        usedBytes -= bytes;
    }

    private boolean fits(long bytes) {
        if (usedBytes + bytes <= limitBytes) {
            return true;
        }
        onFull.run();
        return usedBytes + bytes <= limitBytes;
    }

    private void charge(long bytes) {
        usedBytes += bytes;
        peakBytes = Math.max(peakBytes, usedBytes);
    }
}
