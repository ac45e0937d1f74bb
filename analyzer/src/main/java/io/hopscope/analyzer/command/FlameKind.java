package io.hopscope.analyzer.command;

import io.hopscope.analyzer.output.FoldedStacks;
import java.util.List;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;

/**
 * What a flame graph of {@code hopscope flame} is made of: which JFR events, joined to their request,
 * and the weight of each. {@code hops} is drawn from the agent's own events instead.
 */
public enum FlameKind {
    /** JFR's execution samples, and async-profiler's CPU samples (it writes them as the same event). */
    cpu("samples", List.of("jdk.ExecutionSample")),
    /** Samples of threads in every state: JFR's Java and native-method samples, async-profiler's wall clock. */
    wall("samples", List.of("jdk.ExecutionSample", "jdk.NativeMethodSample", "profiler.WallClockSample")),
    /** Allocation samples weighted by the bytes they stand for, the allocated class on top. */
    alloc("bytes", List.of("jdk.ObjectAllocationSample")),
    /** Monitor contention weighted by the time blocked, the monitor's class on top. */
    lock("ns", List.of("jdk.JavaMonitorEnter")),
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

    /** Adds one joined event of this kind to {@code stacks} under its request's name. */
    void add(FoldedStacks stacks, RecordedEvent e, String requestName) {
        switch (this) {
            case alloc -> stacks.addSample(requestName, e.getStackTrace(), className(e, "objectClass") + "_[k]",
                    e.hasField("weight") ? e.getLong("weight") : 0);
            case lock -> stacks.addSample(requestName, e.getStackTrace(), className(e, "monitorClass") + "_[k]",
                    e.getDuration().toNanos());
            default -> stacks.addSample(requestName, e.getStackTrace(), null, 1);
        }
    }

    private static String className(RecordedEvent e, String field) {
        RecordedClass c = e.hasField(field) ? e.getClass(field) : null;
        return c == null ? "?" : javaName(c.getName());
    }

    // JFR names array classes by their descriptor ("[B", "[Ljava.lang.String;"); people read byte[].
    static String javaName(String name) {
        int dims = 0;
        while (dims < name.length() && name.charAt(dims) == '[') {
            dims++;
        }
        if (dims == 0 || dims == name.length()) {
            return name;
        }
        String base = switch (name.charAt(dims)) {
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'D' -> "double";
            case 'F' -> "float";
            case 'I' -> "int";
            case 'J' -> "long";
            case 'S' -> "short";
            case 'Z' -> "boolean";
            case 'L' -> name.substring(dims + 1, name.endsWith(";") ? name.length() - 1 : name.length());
            default -> name.substring(dims);
        };
        return base + "[]".repeat(dims);
    }
}
