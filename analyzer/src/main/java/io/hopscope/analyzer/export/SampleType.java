package io.hopscope.analyzer.export;

import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.read.HopscopeContract;
import java.util.List;

/**
 * What one exported value measures: its type and unit as the OTLP profile's {@code sample_type} and
 * pprof's {@code sample_type} name them, and the JDK events joined to requests that feed it (none for
 * the values taken from the requests themselves, their hops and the eBPF join).
 */
public enum SampleType {
    /**
     * Each finished request, one a request, its stack its name alone: how many requests of each name
     * (and kind, and trace) a profile's span holds, so that any span's count is the sum of its windows'.
     */
    requests("requests", "count", List.of()),
    /** JFR's execution samples (and async-profiler's CPU samples): threads running Java code. */
    cpu("cpu", "count", List.of(HopscopeContract.EXECUTION_SAMPLE)),
    /** Samples of threads in every state: Java and native-method samples, async-profiler's wall clock. */
    wall("wall", "count", List.of(HopscopeContract.EXECUTION_SAMPLE, HopscopeContract.NATIVE_METHOD_SAMPLE,
            HopscopeContract.PROFILER_WALL_CLOCK_SAMPLE)),
    /** Allocation samples weighted by the bytes they stand for; the allocated class is the leaf frame. */
    alloc("alloc_space", "bytes", List.of(HopscopeContract.ALLOCATION_SAMPLE)),
    /** Time blocked entering a monitor; the monitor's class is the leaf frame. */
    lock("lock", "nanoseconds", List.of(HopscopeContract.MONITOR_ENTER)),
    /** Time parked (LockSupport.park, above JFR's threshold); the parked-on class is the leaf frame. */
    park("park", "nanoseconds", List.of(HopscopeContract.THREAD_PARK)),
    /** Off-CPU time inside requests from bpf/offwake.py --events (export --bpf): the wakee's stack. */
    off_cpu("off_cpu", "nanoseconds", List.of()),
    /** A handoff hop's queue delay: submitted to started on the pool it hopped to. */
    queue_delay("queue_delay", "nanoseconds", List.of()),
    /**
     * A server's hand-over of an inbound request to the thread that runs it: the time the request
     * waited in the server's queue, apart from the application's queue delay.
     */
    server_queue("server_queue", "nanoseconds", List.of()),
    /** A wake hop's wake latency: the waker's signal to the waiter running again. */
    wake_latency("wake_latency", "nanoseconds", List.of()),
    /** A return hop's delay: a result completed on one thread to its pickup on another. */
    return_delay("return_delay", "nanoseconds", List.of());

    final String type;
    final String unit;
    final List<String> events;

    SampleType(String type, String unit, List<String> events) {
        this.type = type;
        this.unit = unit;
        this.events = events;
    }

    /** The type of a hop's delay: a server's hand-over's, else by the hop's kind ({@code handoff}, {@code wake}, {@code return}). */
    static SampleType ofHop(Hop h) {
        if (h.serverQueue()) {
            return server_queue;
        }
        return switch (h.kind()) {
            case "wake" -> wake_latency;
            case "return" -> return_delay;
            default -> queue_delay;
        };
    }

    public String type() {
        return type;
    }

    public String unit() {
        return unit;
    }

    /** The JDK events joined to requests that feed this type (none for requests, hops and off-CPU time). */
    public List<String> events() {
        return events;
    }
}
