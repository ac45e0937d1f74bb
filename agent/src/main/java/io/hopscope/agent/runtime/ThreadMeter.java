package io.hopscope.agent.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
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
        return allocation ? currentThreadAllocatedBytes() : 0L;
    }

    /** The current thread's allocated-bytes counter, or -1 where the JVM has none (unlike allocatedBytes()). */
    long allocatedBytesOrUnknown() {
        return allocation ? currentThreadAllocatedBytes() : -1L;
    }

    /**
     * getCurrentThreadAllocatedBytes where the JDK has it (14, and 11.0.13 as a backport), else
     * getThreadAllocatedBytes of the current thread's id. Measured on 11.0.13 and 17 (a loaded
     * 2-core machine): both 50-140 ns a call, the same within the noise, and no dearer with 1,000
     * more threads, so the fallback looks up no thread list.
     */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+
    private long currentThreadAllocatedBytes() {
        MethodHandle current = CurrentThreadAllocation.GET;
        if (current != null) {
            try {
                return (long) current.invokeExact(threads);
            } catch (Throwable t) {
                return -1L; // the method declares no exception; this is never reached
            }
        }
        return threads.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** A platform thread's allocated-bytes counter (a carrier's, read from its virtual thread), or -1. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+
    long allocatedBytesOf(Thread thread) {
        return allocation && thread != null ? threads.getThreadAllocatedBytes(thread.getId()) : -1L;
    }

    /**
     * com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes (JDK 14+), found once. The
     * agent is compiled for JDK 11, whose API lacks it; a static final handle is a constant to the JIT,
     * so the call costs what a direct one does. Initialised with ThreadMeter's first instance, not
     * in premain (see get()).
     */
    private static final class CurrentThreadAllocation {
        static final MethodHandle GET = find();

        private static MethodHandle find() {
            try {
                return MethodHandles.publicLookup().findVirtual(com.sun.management.ThreadMXBean.class,
                        "getCurrentThreadAllocatedBytes", MethodType.methodType(long.class));
            } catch (NoSuchMethodException | IllegalAccessException e) {
                return null; // JDK 11 before the backport, 12 and 13
            }
        }
    }

    /** CPU time of the current thread, or -1 when not wanted or the JVM does not give it. */
    long cpuNanos() {
        return cpu ? threads.getCurrentThreadCpuTime() : -1L;
    }
}
