package io.hopscope.analyzer.command;

import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM as a request to stop, for commands that run until told to and must
 * then finish normally (a last line, exit 0): a shutdown hook cannot choose the exit code.
 * {@code sun.misc.Signal} is jdk.unsupported, kept for exactly this use; where a signal cannot be
 * handled (the JVM runs with -Xrs) it is left alone and ends the JVM as usual.
 */
final class Signals {

    private static final List<String> NAMES = List.of("INT", "TERM");

    private Signals() {
    }

    /** Runs {@code stop} on SIGINT or SIGTERM until the returned action puts the previous handlers back. */
    static Runnable onInterrupt(Runnable stop) {
        List<Runnable> restore = new ArrayList<>();
        for (String name : NAMES) {
            try {
                Signal signal = new Signal(name);
                SignalHandler previous = Signal.handle(signal, s -> stop.run());
                restore.add(() -> Signal.handle(signal, previous));
            } catch (IllegalArgumentException e) {
                // This JVM does not let us handle it (-Xrs, or no such signal here).
            }
        }
        return () -> restore.forEach(Runnable::run);
    }
}
