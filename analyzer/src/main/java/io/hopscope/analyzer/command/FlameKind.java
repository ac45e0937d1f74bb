package io.hopscope.analyzer.command;

import io.hopscope.analyzer.read.HopscopeContract;
import java.util.List;

/**
 * What a flame graph of {@code hopscope flame} is made of: which JFR events, joined to their request,
 * and the unit of their weight ({@link io.hopscope.analyzer.read.StackSamples} reads each event's
 * stack and weight). {@code hops} is drawn from the agent's own events instead.
 */
public enum FlameKind {
    /** JFR's execution samples, and async-profiler's CPU samples (it writes them as the same event). */
    cpu("samples", List.of(HopscopeContract.EXECUTION_SAMPLE)),
    /** Samples of threads in every state: JFR's Java and native-method samples, async-profiler's wall clock. */
    wall("samples", List.of(HopscopeContract.EXECUTION_SAMPLE, HopscopeContract.NATIVE_METHOD_SAMPLE,
            HopscopeContract.PROFILER_WALL_CLOCK_SAMPLE)),
    /** Allocation samples weighted by the bytes they stand for, the allocated class on top. */
    alloc("bytes", List.of(HopscopeContract.ALLOCATION_SAMPLE)),
    /** Monitor contention weighted by the time blocked, the monitor's class on top. */
    lock("ns", List.of(HopscopeContract.MONITOR_ENTER)),
    /** Off-CPU time with the waker's stack above the wakee's, from the eBPF data. */
    offwake("ns", List.of()),
    /** Request name, pipeline policy, thread pool of each hop, weighted by time (ns). */
    hops("ns", List.of());

    final String unit;
    final List<String> events;

    FlameKind(String unit, List<String> events) {
        this.unit = unit;
        this.events = events;
    }
}
