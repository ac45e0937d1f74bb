package io.hopscope.analyzer.model;

/**
 * The requests a report was restricted to by {@code --from}/{@code --to}: those that started at or
 * after {@code fromEpochNanos} and before {@code toEpochNanos}, {@code asked} being the options as
 * given and {@code originEpochNanos} the recording's start their offsets count from.
 * {@code leftOutBefore} and {@code leftOutAfter} count the requests (of the names asked for) that
 * started outside it; {@link #ALL} is no window.
 */
public record RequestWindow(String asked, long originEpochNanos, long fromEpochNanos, long toEpochNanos,
                            long leftOutBefore, long leftOutAfter) {

    public static final RequestWindow ALL = new RequestWindow("", 0, Long.MIN_VALUE, Long.MAX_VALUE, 0, 0);

    public boolean isAll() {
        return fromEpochNanos == Long.MIN_VALUE && toEpochNanos == Long.MAX_VALUE;
    }

    public boolean contains(long startEpochNanos) {
        return startEpochNanos >= fromEpochNanos && startEpochNanos < toEpochNanos;
    }

    /** The same window with what it left out. */
    public RequestWindow withLeftOut(long before, long after) {
        return new RequestWindow(asked, originEpochNanos, fromEpochNanos, toEpochNanos, before, after);
    }
}
