package io.hopscope.analyzer.model;

/**
 * Which of a report's requests it holds in detail: every one ({@code all}), or the worst
 * {@code worst} by {@code sortedBy} first, then {@code sampled} more taken from the rest as every
 * request whose id is a multiple of {@code sampleEvery} (a power of two, grown until they fit: the
 * same requests on every read of the file). {@code leftOut} counts the requests of the summary that
 * are not held.
 */
public record RequestsKept(boolean all, int worst, String sortedBy, long sampleEvery, int sampled, long leftOut) {

    /** What a report built without saying (tests' own reports): read as every request. */
    public static final RequestsKept NOT_STATED = new RequestsKept(true, 0, "", 0, 0, 0);
}
