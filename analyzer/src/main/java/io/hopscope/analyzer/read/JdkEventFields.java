package io.hopscope.analyzer.read;

import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/**
 * The fields the analyzer reads of the JDK's own events ({@link HopscopeContract#JDK_EVENTS}), by name:
 * these events are far fewer than the agent's, so {@link EventFields}' positions do not pay here, but
 * their field names belong with the rest of the reading side. A field a JDK does not write reads as absent.
 */
public final class JdkEventFields {

    private JdkEventFields() {
    }

    /** jdk.JavaMonitorEnter's and jdk.JavaMonitorWait's monitor class, or null. */
    public static RecordedClass monitorClass(RecordedEvent e) {
        return classField(e, "monitorClass");
    }

    /** jdk.ThreadPark's blocker class, or null. */
    public static RecordedClass parkedClass(RecordedEvent e) {
        return classField(e, "parkedClass");
    }

    /** jdk.ObjectAllocationSample's allocated class, or null. */
    public static RecordedClass objectClass(RecordedEvent e) {
        return classField(e, "objectClass");
    }

    /** jdk.JavaMonitorEnter's previous owner of the monitor, or null. */
    public static RecordedThread previousOwner(RecordedEvent e) {
        return threadField(e, "previousOwner");
    }

    /** jdk.JavaMonitorWait's notifying thread, or null. */
    public static RecordedThread notifier(RecordedEvent e) {
        return threadField(e, "notifier");
    }

    /** jdk.ObjectAllocationSample's weight (bytes the sample stands for), 0 when absent. */
    public static long weightBytes(RecordedEvent e) {
        return JfrEvents.longField(e, "weight", 0);
    }

    /** jdk.GarbageCollection's and jdk.GCPhasePause's collection id, -1 when absent. */
    public static long gcId(RecordedEvent e) {
        return JfrEvents.longField(e, "gcId", -1);
    }

    /** jdk.GarbageCollection's collector or jdk.GCPhasePause's phase name, or null. */
    public static String gcName(RecordedEvent e) {
        return JfrEvents.string(e, "name");
    }

    /** jdk.GarbageCollection's sum of its pauses, or {@code absent}. */
    public static long sumOfPausesNanos(RecordedEvent e, long absent) {
        return e.hasField("sumOfPauses") ? e.getDuration("sumOfPauses").toNanos() : absent;
    }

    /** jdk.JavaThreadStatistics' peak thread count, -1 when absent. */
    public static long peakThreadCount(RecordedEvent e) {
        return JfrEvents.longField(e, "peakCount", -1);
    }

    private static RecordedClass classField(RecordedEvent e, String field) {
        return e.hasField(field) ? e.getClass(field) : null;
    }

    private static RecordedThread threadField(RecordedEvent e, String field) {
        try {
            return e.getValue(field) instanceof RecordedThread t ? t : null;
        } catch (IllegalArgumentException absent) {
            return null;
        }
    }
}
