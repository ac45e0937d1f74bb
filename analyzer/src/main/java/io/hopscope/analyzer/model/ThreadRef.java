package io.hopscope.analyzer.model;

/**
 * A thread as JFR records it: the Java thread id (the key: a virtual thread has no OS thread of its
 * own), the Linux thread id (the key that joins JFR events to eBPF records; -1 when the recording
 * has none, 0 for a virtual thread), the name, and whether it is a virtual thread (JDK 21+).
 */
public record ThreadRef(long javaId, long osId, String name, boolean virtual) {

    /** Stand-in for a thread field that JFR recorded as null. */
    public static final ThreadRef UNKNOWN = new ThreadRef(-1, -1, "?");

    /** A platform thread. */
    public ThreadRef(long javaId, long osId, String name) {
        this(javaId, osId, name, false);
    }

    /**
     * The name, marked "NAME (virtual)" for a virtual thread; for a thread that had none
     * "virtual#ID" (its Java id) or "tid N" (its OS id).
     */
    public String label() {
        if (name != null && !name.isEmpty()) {
            return virtual ? name + " (virtual)" : name;
        }
        return virtual ? "virtual#" + javaId : "tid " + osId;
    }
}
