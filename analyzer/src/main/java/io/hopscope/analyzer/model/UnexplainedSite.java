package io.hopscope.analyzer.model;

/**
 * One place a request's thread was parked or waited on a monitor, unexplained: {@code kind} is
 * {@code park}, {@code monitorWait} or {@code monitorEnter}; {@code frame} the first frame of the JDK
 * event's stack outside the JDK's own waiting machinery ({@code LockSupport}, {@code java.util.concurrent},
 * {@code Object.wait}), "?" when the event has no stack; {@code blocker} the park's blocker or the
 * monitor's class, or null; {@code waker} the thread that ended the longest such wait when JFR names it
 * (a monitor wait's notifier, a monitor's previous owner; never for a park), or null: not seen;
 * {@code stack} the longest event's top frames, one a line.
 */
public record UnexplainedSite(String kind, String frame, String blocker, long count, long nanos, ThreadRef waker,
                              String stack) {

    /** "parked", "waiting on a monitor", "blocked on a monitor": what the thread was doing. */
    public String doing() {
        return switch (kind) {
            case "monitorWait" -> "waiting on a monitor";
            case "monitorEnter" -> "blocked on a monitor";
            default -> "parked";
        };
    }
}
