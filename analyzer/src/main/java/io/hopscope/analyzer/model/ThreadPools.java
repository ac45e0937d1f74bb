package io.hopscope.analyzer.model;

import java.util.regex.Pattern;

/**
 * The pool a thread is in, from its name: the name without its trailing number
 * ({@code reactor-http-epoll-7} is in {@code reactor-http-epoll}), as the hops flame graph and export's
 * {@code thread.pool} name it; a virtual thread's is {@code virtual P}, P its name's prefix.
 */
public final class ThreadPools {

    private static final Pattern POOL_SUFFIX = Pattern.compile("[-_#. ]?\\d+$");

    private ThreadPools() {
    }

    /** {@code threadName} without its trailing number (and the separator before it). */
    public static String prefix(String threadName) {
        return POOL_SUFFIX.matcher(threadName).replaceFirst("");
    }

    /** The pool of a thread named {@code threadName}: {@code (unnamed)} when nothing is left of it. */
    public static String of(String threadName, boolean virtual) {
        String prefix = prefix(threadName);
        String pool = prefix.isEmpty() ? "(unnamed)" : prefix;
        return virtual ? "virtual " + pool : pool;
    }
}
