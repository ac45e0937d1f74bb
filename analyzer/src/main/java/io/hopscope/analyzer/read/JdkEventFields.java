package io.hopscope.analyzer.read;

/**
 * The fields the analyzer reads of the JDK's own events ({@link HopscopeContract#JDK_EVENTS}), by name:
 * these events are far fewer than the agent's, so {@link EventFields}' positions do not pay here, but
 * their field names belong with the rest of the reading side. A field a JDK does not write reads as absent.
 */
public final class JdkEventFields {

    private JdkEventFields() {
    }

    /** jdk.JavaMonitorEnter's and jdk.JavaMonitorWait's monitor class, or null. */
    public static JfrClass monitorClass(JfrEvent e) {
        return classField(e, "monitorClass");
    }

    /** jdk.ThreadPark's blocker class, or null. */
    public static JfrClass parkedClass(JfrEvent e) {
        return classField(e, "parkedClass");
    }

    /** jdk.ObjectAllocationSample's allocated class, or null. */
    public static JfrClass objectClass(JfrEvent e) {
        return classField(e, "objectClass");
    }

    /** jdk.JavaMonitorEnter's previous owner of the monitor, or null. */
    public static JfrThread previousOwner(JfrEvent e) {
        return threadField(e, "previousOwner");
    }

    /** jdk.JavaMonitorWait's notifying thread, or null. */
    public static JfrThread notifier(JfrEvent e) {
        return threadField(e, "notifier");
    }

    /** jdk.ObjectAllocationSample's weight (bytes the sample stands for), 0 when absent. */
    public static long weightBytes(JfrEvent e) {
        return JfrEvents.longField(e, "weight", 0);
    }

    /** jdk.GarbageCollection's and jdk.GCPhasePause's collection id, -1 when absent. */
    public static long gcId(JfrEvent e) {
        return JfrEvents.longField(e, "gcId", -1);
    }

    /** jdk.GarbageCollection's collector or jdk.GCPhasePause's phase name, or null. */
    public static String gcName(JfrEvent e) {
        return JfrEvents.string(e, "name");
    }

    /** jdk.GarbageCollection's sum of its pauses, or {@code absent}. */
    public static long sumOfPausesNanos(JfrEvent e, long absent) {
        return e.timespanNanos("sumOfPauses", absent);
    }

    /** jdk.JavaThreadStatistics' peak thread count, -1 when absent. */
    public static long peakThreadCount(JfrEvent e) {
        return JfrEvents.longField(e, "peakCount", -1);
    }

    private static JfrClass classField(JfrEvent e, String field) {
        return e.value(field) instanceof JfrClass c ? c : null;
    }

    private static JfrThread threadField(JfrEvent e, String field) {
        return e.value(field) instanceof JfrThread t ? t : null;
    }
}
