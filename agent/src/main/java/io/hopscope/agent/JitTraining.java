package io.hopscope.agent;

import java.util.HashMap;
import java.util.Map;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.Registered;
import jdk.jfr.StackTrace;

/**
 * Teaches the JIT every length of JFR's variable-length integers before the application's first
 * request, so that a timestamp growing one byte longer does not deoptimize the agent's hot paths.
 *
 * <p>JFR writes each long as 1 to 9 bytes, seven bits a byte, in {@code EventWriter}'s Java code,
 * which C2 inlines into every method that commits an event ({@code SpanEvent.commit},
 * {@code Requests.boundaryExit}). Branches the profile has never seen taken become traps, and an
 * event's start time (nanoseconds since the JVM started) first needs six bytes at 2^35 ns, 34.4 s
 * into the run: every such method then deoptimizes at once and C2 recompiles them all (what that
 * cost, measured: docs/performance.md, "JIT training"). The next lengths come at 73 minutes and 6.5
 * days. Committing a few thousand events whose fields take every length, here in premain, puts
 * counts on every branch of the writer's shared profile: C2 then compiles them in.
 *
 * <p>The events go to a short in-memory recording of their own, before hopscope's recording
 * starts; the event type is unregistered afterwards, so no recording ever lists it. When another
 * recording is already running (started with {@code -XX:StartFlightRecording}) the events would land
 * in it, so there is no training then.
 */
final class JitTraining {

    /** Enough calls for the writer to be profiled (C1 with profiling) and its branches counted. */
    private static final int ROUNDS = 4_000;

    private JitTraining() {
    }

    /** Carries one value of each length (1 to 9 bytes) through the writer. */
    @Name("hopscope.internal.JitTraining")
    @Enabled(false)
    @Registered(false)
    @StackTrace(false)
    static final class TrainingEvent extends Event {
        long value;
        int small;
    }

    /** Runs the training unless a recording is running; returns whether it ran. */
    static boolean run() {
        if (!FlightRecorder.getFlightRecorder().getRecordings().isEmpty()) {
            return false;
        }
        FlightRecorder.register(TrainingEvent.class);
        // Every other event type off: a recording without settings enables every event whose class
        // says so by default (all of hopscope's), and a chunk-start event such as AgentInfo would
        // put its strings into JFR's string pool for this discarded recording only; the real one
        // would then refer to them without carrying them (read back as null).
        Map<String, String> settings = new HashMap<>();
        for (EventType type : FlightRecorder.getFlightRecorder().getEventTypes()) {
            settings.put(type.getName() + "#enabled", "false");
        }
        String training = EventType.getEventType(TrainingEvent.class).getName();
        settings.put(training + "#enabled", "true");
        settings.put(training + "#threshold", "0 ns");
        settings.put(training + "#stackTrace", "false");
        try (Recording recording = new Recording(settings)) {
            recording.setToDisk(false);
            recording.start();
            for (int i = 0; i < ROUNDS; i++) {
                TrainingEvent e = new TrainingEvent();
                e.begin();
                // Lengths 1..9: 0, 2^7, 2^14, ... 2^56, and a negative value (always 9 bytes).
                int length = i % 10;
                e.value = length == 9 ? -1L - i : 1L << (7 * length);
                e.small = length == 9 ? Integer.MIN_VALUE : (int) Math.min(Integer.MAX_VALUE, 1L << (7 * length));
                e.commit();
            }
            recording.stop();
        } finally {
            FlightRecorder.unregister(TrainingEvent.class);
        }
        return true;
    }
}
