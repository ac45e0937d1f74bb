package io.hopscope.analyzer.read;

import io.hopscope.analyzer.model.StackSample;
import java.util.ArrayList;
import java.util.List;

/** Turns the JDK events that flame graphs join (samples, allocation samples, monitor contention) into {@link StackSample}s. */
public final class StackSamples {

    private StackSamples() {
    }

    /**
     * The stack of a JDK event a flame graph joins, with what goes on top and its weight: the allocated
     * class and bytes for an allocation sample, the monitor's class and the time blocked for monitor
     * contention, the parked-on class and the time parked for a park, nothing and 1 for an execution sample.
     */
    public static StackSample of(JfrEvent e) {
        return capture(e).sample();
    }

    /**
     * What {@link #of} reads of the event, kept for a join that learns the event's request later: the
     * stream reuses its event objects, but stacks, classes and threads are the file's constant-pool
     * objects, safe to keep; their frames are decoded only by {@link Captured#sample()}.
     */
    public static Captured capture(JfrEvent e) {
        JfrThread thread = thread(e);
        String type = e.typeName();
        JfrClass leaf = null;
        long weight = 1;
        switch (type) {
            case HopscopeContract.ALLOCATION_SAMPLE -> {
                leaf = JdkEventFields.objectClass(e);
                weight = e.hasField("weight") ? JfrEvents.longField(e, "weight", 0) : 0;
            }
            case HopscopeContract.MONITOR_ENTER -> {
                leaf = JdkEventFields.monitorClass(e);
                weight = e.durationNanos();
            }
            case HopscopeContract.THREAD_PARK -> {
                leaf = JdkEventFields.parkedClass(e);
                weight = e.durationNanos();
            }
            default -> {
            }
        }
        return new Captured(thread == null ? -1 : thread.javaThreadId(), e.startNanos(), e.stackTrace(),
                thread == null ? null : thread.javaName(), type.equals(HopscopeContract.ALLOCATION_SAMPLE)
                || type.equals(HopscopeContract.MONITOR_ENTER) || type.equals(HopscopeContract.THREAD_PARK), leaf, weight);
    }

    /**
     * A JDK event as {@link #capture} read it: its thread (-1 when none) and start, then what
     * {@link #sample()} decodes; {@code hasLeaf} for the types that put a class on top.
     */
    public record Captured(long javaThreadId, long startNanos, JfrStack stack, String threadName,
                           boolean hasLeaf, JfrClass leaf, long weight) {

        public StackSample sample() {
            List<String> frames = new ArrayList<>();
            if (stack != null) {
                if (stack.isTruncated()) {
                    frames.add("[truncated]");
                }
                List<JfrFrame> jfrFrames = stack.frames();
                for (int i = jfrFrames.size() - 1; i >= 0; i--) {
                    JfrFrame f = jfrFrames.get(i);
                    frames.add(!f.hasMethod() ? "?" : f.typeName() + "." + f.methodName());
                }
            }
            return new StackSample(frames, hasLeaf ? (leaf == null ? "?" : javaName(leaf.name())) + "_[k]" : null,
                    weight, threadName);
        }
    }

    /**
     * The thread an event is about: samples (jdk.ExecutionSample, jdk.NativeMethodSample,
     * async-profiler's) name the thread they sampled in sampledThread, their event thread is empty.
     */
    public static JfrThread thread(JfrEvent e) {
        JfrThread t = e.thread();
        return t != null ? t : e.value("sampledThread") instanceof JfrThread sampled ? sampled : null;
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
