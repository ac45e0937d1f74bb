package io.hopscope.agent.runtime;

import java.lang.management.ManagementFactory;

/** Reads the current thread's allocated-bytes counter and CPU time, where the JVM offers them. */
final class ThreadMeter {

    private static volatile ThreadMeter instance;
    /**
     * Whether segments record CPU time (option cputime=true). Off by default: on Linux,
     * getCurrentThreadCpuTime is a clock_gettime(CLOCK_THREAD_CPUTIME_ID) system call, not a vDSO
     * read, and two per segment cost more than the rest of the segment's bookkeeping.
     */
    private static volatile boolean cpuTimeWanted;

    private final com.sun.management.ThreadMXBean threads;
    private final boolean allocation;
    private final boolean cpu;

    private ThreadMeter() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        if (bean instanceof com.sun.management.ThreadMXBean) {
            threads = (com.sun.management.ThreadMXBean) bean;
            allocation = threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled();
            cpu = cpuTimeWanted && threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
        } else {
            threads = null;
            allocation = false;
            cpu = false;
        }
    }

    /** Set from the options before the first segment; a later call has no effect. */
    static void wantCpuTime(boolean wanted) {
        cpuTimeWanted = wanted;
    }

    /**
     * Created on first use, not in premain: touching java.lang.management that early would
     * initialise JMX and logging before an application server has configured them.
     */
    static ThreadMeter get() {
        ThreadMeter m = instance;
        if (m == null) {
            synchronized (ThreadMeter.class) {
                m = instance;
                if (m == null) {
                    m = new ThreadMeter();
                    instance = m;
                }
            }
        }
        return m;
    }

    long allocatedBytes() {
        return allocation ? threads.getCurrentThreadAllocatedBytes() : 0L;
    }

    /** The current thread's allocated-bytes counter, or -1 where the JVM has none (unlike allocatedBytes()). */
    long allocatedBytesOrUnknown() {
        return allocation ? threads.getCurrentThreadAllocatedBytes() : -1L;
    }

    /** A platform thread's allocated-bytes counter (a carrier's, read from its virtual thread), or -1. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+
    long allocatedBytesOf(Thread thread) {
        return allocation && thread != null ? threads.getThreadAllocatedBytes(thread.getId()) : -1L;
    }

    /** CPU time of the current thread, or -1 when not wanted or the JVM does not give it. */
    long cpuNanos() {
        return cpu ? threads.getCurrentThreadCpuTime() : -1L;
    }
}
