package io.hopscope.agent.asprof;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import one.profiler.AsyncProfiler;

/**
 * {@code asprof=EVENT[;interval=N]}: async-profiler in-process, writing the agent's recording itself.
 * With {@code jfrsync} it starts the JDK's Flight Recorder with the agent's settings ({@code hopscope.jfc})
 * and merges its own samples (CPU and wall-clock samples that see native and kernel frames and threads in
 * every state) into the same file, so the analyzer joins them to requests like the JDK's own samples.
 *
 * <p>Whatever stops it from starting (another OS, perf events denied, no native library for this CPU),
 * it says so once on stderr and the agent records without it: profiling is never worth breaking the
 * application for.
 */
public final class AsyncProfilerRecording {

    /** The events async-profiler takes here; a typo should be one line at start, not a late failure. */
    static final Set<String> EVENTS = Set.of("cpu", "wall", "alloc", "lock", "itimer", "ctimer");
    private static final Pattern INTERVAL = Pattern.compile("\\d+(ns|us|ms|s|k|m|g|K|M|G)?");

    /** A parsed {@code asprof=} value. */
    public static final class Settings {
        private final String event;
        private final String interval;

        Settings(String event, String interval) {
            this.event = event;
            this.interval = interval;
        }

        public String event() {
            return event;
        }

        public String interval() {
            return interval;
        }

        /** async-profiler's start command writing {@code jfrFile} in sync with a JDK recording of {@code jfc}. */
        String command(Path jfc, Path jfrFile) {
            return "start,event=" + event + (interval == null ? "" : ",interval=" + interval)
                    + ",jfrsync=" + jfc.toAbsolutePath() + ",file=" + jfrFile.toAbsolutePath();
        }
    }

    private AsyncProfilerRecording() {
    }

    /** Parses {@code EVENT[;interval=N]}; a problem goes to {@code problems} as one line and gives null. */
    public static Settings parse(String value, Consumer<String> problems) {
        String[] parts = value.split(";");
        String event = parts[0].trim().toLowerCase(Locale.ROOT);
        if (!EVENTS.contains(event)) {
            problems.accept("hopscope: asprof= event '" + parts[0].trim() + "' is not one of " + String.join(", ",
                    new java.util.TreeSet<>(EVENTS)) + "; async-profiler not started");
            return null;
        }
        String interval = null;
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].trim();
            if (part.startsWith("interval=") && INTERVAL.matcher(part.substring("interval=".length())).matches()) {
                interval = part.substring("interval=".length());
            } else if (!part.isEmpty()) {
                problems.accept("hopscope: asprof= part '" + part + "' is not interval=N[ns|us|ms|s] (or bytes"
                        + " for alloc); async-profiler not started");
                return null;
            }
        }
        return new Settings(event, interval);
    }

    /**
     * Starts async-profiler writing {@code jfrFile} with the JDK events of the settings {@code jfcText};
     * it writes the file when the JVM exits. Returns false, having
     * said why once on stderr, when it cannot start; the caller then records without it.
     */
    public static boolean start(Settings settings, Path jfrFile, String jfcText) {
        try {
            Path jfc = Files.createTempFile("hopscope-", ".jfc");
            jfc.toFile().deleteOnExit();
            Files.writeString(jfc, jfcText);
            // No stop of ours at exit: async-profiler finishes the file itself when the VM dies, after
            // the JDK's recording; a shutdown hook runs concurrently with JFR's own and loses its chunks.
            AsyncProfiler.getInstance().execute(settings.command(jfc, jfrFile));
            return true;
        } catch (Throwable t) {
            // UnsatisfiedLinkError (no library for this OS/CPU), IllegalStateException (perf events
            // denied, already running), IOException: all mean the same to the user.
            System.err.println("hopscope: async-profiler could not start (" + t.getMessage()
                    + "); recording without it");
            return false;
        }
    }
}
