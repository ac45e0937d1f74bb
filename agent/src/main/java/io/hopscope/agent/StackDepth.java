package io.hopscope.agent;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Recording;

/**
 * Raises JFR's stack depth for the agent's recording. JFR keeps 64 frames by default, and a
 * Reactor or azure-core stack is far deeper (the pipeline sample's Netty run needs a few hundred):
 * cut there, a flame graph reads {@code [truncated]} where the frames that say what the request did
 * would be. The JVM flag {@code -XX:FlightRecorderOptions=stackdepth=N} is read at start only; the
 * same option is {@code jdk.jfr.internal.Options}, which the agent may reach once its
 * Instrumentation exports that package to it. Measured on JDK 17 and 25: set in premain, before
 * any recording, and in agentmain, after one ran, the next recording keeps 300-frame stacks.
 */
final class StackDepth {

    /** async-profiler's default, and JFR's maximum. */
    static final int FRAMES = 2048;

    private StackDepth() {
    }

    /**
     * Raises the depth to {@link #FRAMES} unless it is that deep already; returns null when done,
     * or a line that says what to do instead.
     */
    static String raise(Instrumentation instrumentation) {
        try {
            Module jfr = Recording.class.getModule();
            Module agent = StackDepth.class.getModule();
            if (!jfr.isExported("jdk.jfr.internal", agent)) {
                instrumentation.redefineModule(jfr, Set.of(), Map.of("jdk.jfr.internal", Set.of(agent)), Map.of(),
                        Set.of(), Map.of());
            }
            Class<?> options = Class.forName("jdk.jfr.internal.Options", true, null);
            int depth = (Integer) options.getMethod("getStackDepth").invoke(null);
            if (depth < FRAMES) {
                options.getMethod("setStackDepth", Integer.class).invoke(null, FRAMES);
            }
            return null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return "hopscope: cannot raise JFR's stack depth on this JVM (" + e + "); stacks deeper than 64 frames"
                    + " will be cut ([truncated] in flame graphs): start the JVM with"
                    + " -XX:FlightRecorderOptions=stackdepth=" + FRAMES;
        }
    }
}
