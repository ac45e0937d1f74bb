package io.hopscope.analyzer.read;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The analyzer's side of the recording contract (README, "The recording contract"): the agent's event names and
 * the fields the analyzer reads, with their JFR types. {@code RecordingContractTest} checks this
 * table against the README's, so the two cannot drift; the analyzer never loads the agent's classes.
 */
public final class HopscopeContract {

    public static final String REQUEST = "hopscope.Request";
    /** Off by default; {@code hopscope live} enables it to count requests in flight from their start. */
    public static final String REQUEST_START = "hopscope.RequestStart";
    public static final String SEGMENT = "hopscope.Segment";
    public static final String HOP = "hopscope.Hop";
    public static final String SPAN = "hopscope.Span";
    public static final String WAIT = "hopscope.Wait";
    public static final String NON_BLOCKING_WAIT = "hopscope.NonBlockingWait";
    public static final String MOUNTS = "hopscope.Mounts";
    public static final String AGENT_WORK = "hopscope.AgentWork";
    public static final String AGENT_ERROR = "hopscope.AgentError";
    public static final String CLOCK_SYNC = "hopscope.ClockSync";
    public static final String AGENT_INFO = "hopscope.AgentInfo";

    /** Event name to its fields (name to type as the README writes it: long, int, boolean, String, Thread). */
    public static final Map<String, Map<String, String>> EVENTS = events();

    /**
     * The Wait kinds of a park that no wait known by name covers, ended by a thread of the same
     * request (the agent names it by its blocker): each such Wait explains its park with a wake hop.
     */
    public static final List<String> PARK_WAIT_KINDS = List.of("CountDownLatch.await", "Semaphore.acquire",
            "SynchronousQueue.transfer", "LinkedTransferQueue.transfer", "Condition.await", "Lock.lock",
            "LockSupport.park");

    public static final String THREAD_PARK = "jdk.ThreadPark";
    public static final String MONITOR_ENTER = "jdk.JavaMonitorEnter";
    public static final String MONITOR_WAIT = "jdk.JavaMonitorWait";
    public static final String ALLOCATION_SAMPLE = "jdk.ObjectAllocationSample";
    public static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    public static final String THREAD_START = "jdk.ThreadStart";
    public static final String THREAD_END = "jdk.ThreadEnd";
    public static final String GARBAGE_COLLECTION = "jdk.GarbageCollection";
    public static final String GC_PHASE_PAUSE = "jdk.GCPhasePause";
    public static final String CPU_LOAD = "jdk.CPULoad";
    public static final String THREAD_STATISTICS = "jdk.JavaThreadStatistics";
    /** JDK 21+; absent from a JDK 17 recording. */
    public static final String VIRTUAL_THREAD_PINNED = "jdk.VirtualThreadPinned";

    /** JDK events the analyzer reads (all enabled by the agent's hopscope.jfc), in the README's order. */
    public static final List<String> JDK_EVENTS = List.of(THREAD_PARK, MONITOR_ENTER, MONITOR_WAIT,
            ALLOCATION_SAMPLE, EXECUTION_SAMPLE, THREAD_START, THREAD_END, GARBAGE_COLLECTION, GC_PHASE_PAUSE,
            CPU_LOAD, THREAD_STATISTICS, VIRTUAL_THREAD_PINNED);

    /** Samples that flame graphs of wall time also read, though hopscope.jfc does not enable them. */
    public static final String NATIVE_METHOD_SAMPLE = "jdk.NativeMethodSample";
    /** async-profiler's wall-clock samples in a JFR file of its own. */
    public static final String PROFILER_WALL_CLOCK_SAMPLE = "profiler.WallClockSample";

    private HopscopeContract() {
    }

    private static Map<String, Map<String, String>> events() {
        Map<String, Map<String, String>> m = new LinkedHashMap<>();
        m.put(REQUEST, fields("requestId", "long", "name", "String", "boundary", "String", "url", "String",
                "outcome", "String", "error", "String", "statusCode", "int", "startThread", "Thread",
                "traceId", "String", "spanId", "String", "kind", "String"));
        m.put(REQUEST_START, fields("requestId", "long", "name", "String"));
        m.put(SEGMENT, fields("requestId", "long", "kind", "String", "allocatedBytes", "long", "cpuNanos", "long"));
        m.put(HOP, fields("requestId", "long", "kind", "String", "fromThread", "Thread", "toThread", "Thread",
                "delayNanos", "long", "via", "String", "scheduledNanos", "long", "serverQueue", "boolean"));
        m.put(SPAN, fields("requestId", "long", "spanId", "long", "parentSpanId", "long", "kind", "String",
                "name", "String", "mode", "String", "depth", "int"));
        m.put(WAIT, fields("requestId", "long", "kind", "String", "wakerThread", "Thread",
                "wakeLatencyNanos", "long", "nonBlockingThread", "boolean", "outcome", "String"));
        m.put(NON_BLOCKING_WAIT, fields("requestId", "long", "kind", "String"));
        m.put(MOUNTS, fields("requestId", "long", "mounts", "int", "carriers", "String", "mountWaitNanos", "long",
                "maxMountWaitNanos", "long", "mountedNanos", "long", "allocatedBytes", "long"));
        m.put(AGENT_WORK, fields("requestId", "long", "classes", "int", "transformedClasses", "int", "nanos", "long",
                "cpuNanos", "long", "allocatedBytes", "long"));
        m.put(AGENT_ERROR, fields("instrumentation", "String", "task", "String", "message", "String", "count", "long"));
        m.put(CLOCK_SYNC, fields("monotonicNanos", "long"));
        m.put(AGENT_INFO, fields("version", "String", "options", "String", "pid", "long",
                "instrumentations", "String"));
        return java.util.Collections.unmodifiableMap(m);
    }

    private static Map<String, String> fields(String... nameType) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameType.length; i += 2) {
            m.put(nameType[i], nameType[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(m);
    }
}
