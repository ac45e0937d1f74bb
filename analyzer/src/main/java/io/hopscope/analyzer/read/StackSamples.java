package io.hopscope.analyzer.read;

import io.hopscope.analyzer.model.StackSample;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/** Turns the JDK events that flame graphs join (samples, allocation samples, monitor contention) into {@link StackSample}s. */
public final class StackSamples {

    private StackSamples() {
    }

    /**
     * The stack of a JDK event a flame graph joins, with what goes on top and its weight: the allocated
     * class and bytes for an allocation sample, the monitor's class and the time blocked for monitor
     * contention, the parked-on class and the time parked for a park, nothing and 1 for an execution sample.
     */
    public static StackSample of(RecordedEvent e) {
        List<String> frames = new ArrayList<>();
        RecordedStackTrace stack = e.getStackTrace();
        if (stack != null) {
            if (stack.isTruncated()) {
                frames.add("[truncated]");
            }
            List<RecordedFrame> jfrFrames = stack.getFrames();
            for (int i = jfrFrames.size() - 1; i >= 0; i--) {
                RecordedFrame f = jfrFrames.get(i);
                frames.add(f.getMethod() == null ? "?" : f.getMethod().getType().getName() + "." + f.getMethod().getName());
            }
        }
        RecordedThread thread = thread(e);
        String threadName = thread == null ? null : thread.getJavaName();
        return switch (e.getEventType().getName()) {
            case HopscopeContract.ALLOCATION_SAMPLE -> new StackSample(frames, className(e, "objectClass") + "_[k]",
                    e.hasField("weight") ? e.getLong("weight") : 0, threadName);
            case HopscopeContract.MONITOR_ENTER -> new StackSample(frames, className(e, "monitorClass") + "_[k]",
                    e.getDuration().toNanos(), threadName);
            case HopscopeContract.THREAD_PARK -> new StackSample(frames, className(e, "parkedClass") + "_[k]",
                    e.getDuration().toNanos(), threadName);
            default -> new StackSample(frames, null, 1, threadName);
        };
    }

    /**
     * The thread an event is about: samples (jdk.ExecutionSample, jdk.NativeMethodSample,
     * async-profiler's) name the thread they sampled in sampledThread, their event thread is empty.
     */
    public static RecordedThread thread(RecordedEvent e) {
        return e.getThread() != null ? e.getThread() : e.hasField("sampledThread") ? e.getThread("sampledThread") : null;
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
