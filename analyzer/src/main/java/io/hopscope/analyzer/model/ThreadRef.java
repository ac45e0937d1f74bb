package io.hopscope.analyzer.model;

/**
 * A thread as JFR records it: the Java thread id, the Linux thread id (the key that joins JFR
 * events to eBPF records; -1 when the recording has none) and the name.
 */
public record ThreadRef(long javaId, long osId, String name) {

    /** Stand-in for a thread field that JFR recorded as null. */
    public static final ThreadRef UNKNOWN = new ThreadRef(-1, -1, "?");

    /** The name, or "tid N" when the thread had none. */
    public String label() {
        return name != null && !name.isEmpty() ? name : "tid " + osId;
    }
}
