package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on stderr (me.tongfei:progressbar) while a command reads a recording, shown only
 * when stderr is a terminal: a pipe, a file or a test's captured stream gets nothing.
 */
final class ProgressBars implements AutoCloseable {

    private static final int STEPS = 1000;

    private final ProgressBar bar;

    private ProgressBars(ProgressBar bar) {
        this.bar = bar;
    }

    /** A bar for reading {@code file} with {@code analyzer}, or an inert one when stderr is no terminal. */
    static ProgressBars reading(RecordingAnalyzer analyzer, Path file) {
        if (!stderrIsTerminal()) {
            return new ProgressBars(null);
        }
        // A fixed width: no terminal query (the library would load JLine for it).
        ProgressBar bar = new ProgressBarBuilder().setTaskName("reading " + file.getFileName())
                .setInitialMax(STEPS).setStyle(ProgressBarStyle.ASCII).hideEta().setUpdateIntervalMillis(250)
                .setConsumer(new ConsoleProgressBarConsumer(System.err, 72)).build();
        analyzer.progress(share -> bar.stepTo((long) (share * STEPS)));
        return new ProgressBars(bar);
    }

    /** Whether fd 2 is a terminal: /proc/self/fd/2 names a tty on Linux; elsewhere, whether there is a console. */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    /** Completes the bar and ends its line, so that what follows starts on a line of its own. */
    @Override
    public void close() {
        if (bar != null) {
            bar.stepTo(STEPS);
            bar.close();
        }
    }
}
