package io.hopscope.samples.common;

import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * The end-of-run figures of a closed-loop scenario: ops/s, latency percentiles (HdrHistogram), the
 * process's allocated bytes and CPU time (all threads, JIT and GC included), GC count and time, and
 * the peak live platform thread count ({@code ThreadMXBean} does not count virtual threads) and the
 * caller threads as they ran, printed one {@code key: value} per line so benchmarks and the
 * analyzer's demo can parse them.
 *
 * <p>Allocated bytes: on JDK 21+ {@code com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes}
 * (which includes threads that have ended); on older JDKs the sum of
 * {@code getThreadAllocatedBytes(long[])} over all live threads. Either is read at the start and at
 * the end of the measured window and the difference is printed; {@code allocated_bytes_method} says
 * which one was used (the live-thread sum misses threads that ended inside the window).
 */
public final class RunFigures {

    /**
     * When {@code main} began (wall clock, ms) and the process's CPU time by then (ns; -1 unknown):
     * the JVM's own start and any java agent's premain, which run before it.
     */
    private static volatile long mainEnteredMillis = -1;
    private static volatile long cpuAtMainNanos = -1;

    private final ConcurrentHistogram latencyNanos = new ConcurrentHistogram(3);
    private final AtomicLong ops = new AtomicLong();
    /** Every completed operation, warmup included: the first window's count. */
    private final AtomicLong completedOps = new AtomicLong();
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private volatile boolean measuring;
    private long startNanos;
    private long endNanos;
    private long startAllocated;
    private long endAllocated;
    private long startCpuNanos;
    private long endCpuNanos;
    private long startGcCount;
    private long startGcMillis;
    private long endGcCount;
    private long endGcMillis;
    private int peakThreads;
    private double firstWindowS;
    private long loopStartNanos;
    private long loopStartCpuNanos;
    private long firstWindowOps = -1;
    private long firstWindowNanos;
    private long firstWindowCpuNanos;
    private final Map<String, String> callerKinds = new ConcurrentSkipListMap<>(RunFigures::byNameThenNumber);

    /**
     * Called first thing in {@code main}: the time from the JVM's start to here is what an agent's
     * premain and install add before the application runs. Loads no management classes (they
     * would count themselves): the CPU comes from /proc, at the clock tick's 10 ms resolution.
     */
    public static void mainEntered() {
        mainEnteredMillis = System.currentTimeMillis();
        cpuAtMainNanos = ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /** Notes a caller thread as it starts: its name and whether it really is virtual are printed. */
    public void callerStarted(Thread caller) {
        callerKinds.put(caller.getName(), CallerThreads.kindOf(caller));
    }

    /**
     * Also measures the first {@code seconds} of the loop, warmup included (0 = not): what a JVM does
     * before it is warm (class loading, instrumentation, the JIT), beside the measured window.
     */
    public void measureFirstWindow(double seconds) {
        firstWindowS = seconds;
    }

    public double firstWindowS() {
        return firstWindowS;
    }

    /** The loop's callers are about to start: the first window begins. */
    public void loopStarted() {
        loopStartCpuNanos = processCpuNanos();
        loopStartNanos = System.nanoTime();
    }

    public long loopStartNanos() {
        return loopStartNanos;
    }

    /** Ends the first window (once). */
    public void endFirstWindow() {
        if (firstWindowOps < 0) {
            firstWindowOps = completedOps.get();
            firstWindowCpuNanos = processCpuNanos() - loopStartCpuNanos;
            firstWindowNanos = System.nanoTime() - loopStartNanos;
        }
    }

    /** Counts one validated operation, measured or not (the first window counts warmup too). */
    public void completed() {
        completedOps.incrementAndGet();
    }

    /** Starts the measured window: what was recorded during warmup is dropped. */
    public void startMeasuring() {
        latencyNanos.reset();
        ops.set(0);
        threads.resetPeakThreadCount();
        startGcCount = gcCount();
        startGcMillis = gcMillis();
        startAllocated = allocatedBytesNow();
        startCpuNanos = processCpuNanos();
        startNanos = System.nanoTime();
        measuring = true;
    }

    public boolean measuring() {
        return measuring;
    }

    /** Records one validated operation; ignored outside the measured window. */
    public void record(long latencyNanosValue) {
        if (measuring) {
            latencyNanos.recordValue(Math.max(0, latencyNanosValue));
            ops.incrementAndGet();
        }
    }

    public long ops() {
        return ops.get();
    }

    /** Ends the measured window; later records are ignored. */
    public void stopMeasuring() {
        if (!measuring) {
            return;
        }
        measuring = false;
        endNanos = System.nanoTime();
        endAllocated = allocatedBytesNow();
        endCpuNanos = processCpuNanos();
        endGcCount = gcCount();
        endGcMillis = gcMillis();
        peakThreads = threads.getPeakThreadCount();
    }

    /** Prints the scenario's settings, then the figures, one {@code key: value} per line. */
    public void print(PrintStream out, Map<String, Object> settings) {
        for (Map.Entry<String, Object> e : settings.entrySet()) {
            out.println(e.getKey() + ": " + e.getValue());
        }
        double seconds = (endNanos - startNanos) / 1e9;
        long n = ops.get();
        long allocated = endAllocated - startAllocated;
        out.printf("measured_s: %.3f%n", seconds);
        out.println("ops: " + n);
        out.printf("ops_per_s: %.1f%n", seconds > 0 ? n / seconds : 0.0);
        out.printf("latency_p50_us: %.1f%n", latencyNanos.getValueAtPercentile(50) / 1e3);
        out.printf("latency_p90_us: %.1f%n", latencyNanos.getValueAtPercentile(90) / 1e3);
        out.printf("latency_p99_us: %.1f%n", latencyNanos.getValueAtPercentile(99) / 1e3);
        out.printf("latency_max_us: %.1f%n", latencyNanos.getMaxValue() / 1e3);
        out.println("allocated_bytes: " + allocated);
        out.println("allocated_bytes_per_op: " + (n > 0 ? allocated / n : 0));
        out.println("allocated_bytes_method: " + allocatedBytesMethod());
        long cpu = endCpuNanos - startCpuNanos;
        out.printf("cpu_s: %.3f%n", startCpuNanos < 0 ? -1.0 : cpu / 1e9);
        out.printf("cpu_us_per_op: %.1f%n", startCpuNanos < 0 || n == 0 ? -1.0 : cpu / 1e3 / n);
        out.println("gc_count: " + (endGcCount - startGcCount));
        out.println("gc_time_ms: " + (endGcMillis - startGcMillis));
        out.println("peak_threads: " + peakThreads);
        StringBuilder callers = new StringBuilder();
        callerKinds.forEach((name, kind) -> callers.append(callers.length() == 0 ? "" : ", ")
                .append(name).append(" (").append(kind).append(')'));
        out.println("caller_threads: " + callers);
        printStartToMain(out);
        if (firstWindowOps >= 0) {
            double firstS = firstWindowNanos / 1e9;
            out.printf("first_window_s: %.3f%n", firstS);
            out.println("first_window_ops: " + firstWindowOps);
            out.printf("first_window_ops_per_s: %.1f%n", firstS > 0 ? firstWindowOps / firstS : 0.0);
            out.printf("first_window_cpu_us_per_op: %.1f%n",
                    loopStartCpuNanos < 0 || firstWindowOps == 0 ? -1.0 : firstWindowCpuNanos / 1e3 / firstWindowOps);
        }
        out.flush();
    }

    /**
     * {@code jvm_start_to_main_ms} and {@code jvm_start_to_main_cpu_ms}, when {@link #mainEntered()} ran:
     * the JVM's start-up and any java agent's premain and install.
     */
    public static void printStartToMain(PrintStream out) {
        if (mainEnteredMillis >= 0) {
            // The JVM's start as it records it (the beginning of its creation), on the same clock.
            out.println("jvm_start_to_main_ms: " + (mainEnteredMillis - ManagementFactory.getRuntimeMXBean().getStartTime()));
            out.printf("jvm_start_to_main_cpu_ms: %.0f%n", cpuAtMainNanos < 0 ? -1.0 : cpuAtMainNanos / 1e6);
        }
    }

    /** pipeline-caller-2 before pipeline-caller-10: a shorter name of the same stem first. */
    private static int byNameThenNumber(String a, String b) {
        String aStem = a.replaceAll("\\d+$", "");
        String bStem = b.replaceAll("\\d+$", "");
        if (aStem.equals(bStem) && a.length() != b.length()) {
            return Integer.compare(a.length(), b.length());
        }
        return a.compareTo(b);
    }

    /**
     * Bytes allocated by the process so far, by {@link #allocatedBytesMethod()}: a difference of two
     * readings is what a window allocated.
     */
    public static long allocatedBytesNow() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Method total = totalAllocatedMethod();
        if (total != null) {
            try {
                return (long) total.invoke(threads);
            } catch (ReflectiveOperationException e) {
                // Fall through to the live-thread sum.
            }
        }
        long[] ids = threads.getAllThreadIds();
        long sum = 0;
        for (long bytes : threads.getThreadAllocatedBytes(ids)) {
            if (bytes > 0) {
                sum += bytes;
            }
        }
        return sum;
    }

    /** {@code total} (JDK 21+, threads that ended included) or {@code live-threads-sum}: how allocated bytes are read. */
    public static String allocatedBytesMethod() {
        return totalAllocatedMethod() != null ? "total" : "live-threads-sum";
    }

    /** JDK 21's getTotalThreadAllocatedBytes, looked up reflectively because we compile for 17. */
    private static Method totalAllocatedMethod() {
        try {
            return com.sun.management.ThreadMXBean.class.getMethod("getTotalThreadAllocatedBytes");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** CPU time of the whole process (every thread: JIT, GC, JFR included), or -1 where unknown. */
    public static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean
                ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime()
                : -1L;
    }

    public static long gcCount() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : gcs()) {
            sum += Math.max(0, gc.getCollectionCount());
        }
        return sum;
    }

    public static long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : gcs()) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }

    private static List<GarbageCollectorMXBean> gcs() {
        return ManagementFactory.getGarbageCollectorMXBeans();
    }
}
