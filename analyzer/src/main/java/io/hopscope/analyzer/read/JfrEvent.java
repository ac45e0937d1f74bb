package io.hopscope.analyzer.read;

/**
 * One event of a recording as the analyzer's consumers read it, whichever reader decoded it: the JDK's
 * ({@link JdkEvent}, over {@code jdk.jfr.consumer}, the reference) or the direct decoder's
 * ({@code read.chunk}). A handler gets a flyweight valid only during its call (both readers reuse it):
 * it copies what it keeps; the threads, classes and stacks it returns are the chunk's constant-pool
 * objects, safe to keep.
 */
public interface JfrEvent {

    /** The event type's name, e.g. {@code jdk.ThreadPark}. */
    String typeName();

    /** Start, epoch nanoseconds, as {@code RecordedEvent#getStartTime} gives it. */
    long startNanos();

    /** End, epoch nanoseconds, as {@code RecordedEvent#getEndTime} gives it. */
    long endNanos();

    /** End minus start, as {@code RecordedEvent#getDuration} gives it. */
    default long durationNanos() {
        return endNanos() - startNanos();
    }

    /** The thread that committed the event ({@code eventThread}), or null. */
    JfrThread thread();

    /** The event's stack trace, or null; its frames are decoded only when asked for. */
    JfrStack stackTrace();

    boolean hasField(String name);

    /**
     * A field's value as {@code RecordedEvent#getValue} gives it (boxed primitives, strings, and a
     * {@link JfrThread}, {@link JfrClass} or {@link JfrStack} for those constant-pool types); null when
     * the field is absent or null.
     */
    Object value(String name);

    /**
     * A {@code @Timespan} field in nanoseconds, as {@code RecordedObject#getDuration(String)} gives it;
     * {@code absent} when the type has no such field.
     */
    long timespanNanos(String name, long absent);
}
