package io.hopscope.analyzer.read.chunk;

/**
 * Ticks to epoch nanoseconds for one chunk, computed as the JDK's {@code TimeConverter} does (a double
 * divisor, the quotient truncated), from the header the JDK's reader would take it from.
 *
 * <p>That header is not always the chunk's own: JDK 17's reader makes its parsers, with the converter
 * of the chunk it makes them for, only when the metadata changes, and keeps them for the chunks after;
 * from JDK 25 on (JDK-8351064) it converts every chunk with the first chunk's offsets. A chunk read
 * with its own header comes out some nanoseconds apart from either. {@link #forChunks} picks, per chunk,
 * the header the running JDK's reader uses, so that both readers give the same times.
 */
record TimeBase(long startNanos, long startTicks, double divisor) {

    static TimeBase of(long startNanos, long startTicks, long ticksPerSecond) {
        return new TimeBase(startNanos, startTicks, (double) ticksPerSecond / 1_000_000_000L);
    }

    long timestamp(long ticks) {
        return startNanos + (long) ((ticks - startTicks) / divisor);
    }

    long timespan(long ticks) {
        return (long) (ticks / divisor);
    }

    /** Which chunk's header converts each chunk's ticks, by the rule of the JDK this runs on. */
    static TimeBase[] forChunks(TimeBase[] own, long[] metadataIds) {
        TimeBase[] used = new TimeBase[own.length];
        boolean firstAlways = Runtime.version().feature() >= 25;
        for (int i = 0; i < own.length; i++) {
            if (i == 0) {
                used[i] = own[i];
            } else if (firstAlways) {
                used[i] = used[0];
            } else {
                used[i] = metadataIds[i] == metadataIds[i - 1] ? used[i - 1] : own[i];
            }
        }
        return used;
    }
}
