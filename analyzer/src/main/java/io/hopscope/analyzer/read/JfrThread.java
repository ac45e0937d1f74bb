package io.hopscope.analyzer.read;

/** A thread of a recording's constant pool, as {@code RecordedThread} gives it; one object per thread and chunk. */
public interface JfrThread {

    /** -1 when the recording has none. */
    long javaThreadId();

    /** -1 when the recording has none. */
    long osThreadId();

    /** Null when the recording has none. */
    String javaName();

    String osName();

    /** Whether it is a virtual thread (a field from JDK 21's recordings on; false before). */
    boolean isVirtual();
}
