package io.hopscope.analyzer.command;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where a command writes: {@code -o FILE}, or the command line's stdout (no {@code -o}, or {@code -o -}). */
final class Output {

    private Output() {
    }

    /** Whether {@code -o} means standard output: not given, or {@code -}. */
    static boolean isStdout(Path file) {
        return file == null || file.toString().equals("-");
    }

    static PrintWriter open(Path file, PrintWriter stdout) throws CliProblem {
        if (isStdout(file)) {
            return stdout;
        }
        try {
            return new PrintWriter(new OutputStreamWriter(Files.newOutputStream(file), StandardCharsets.UTF_8));
        } catch (IOException e) {
            Path parent = file.toAbsolutePath().getParent();
            String why = parent != null && !Files.isDirectory(parent) ? "its directory does not exist"
                    : "not writable";
            throw new CliProblem(file + ": cannot write output file, " + why);
        }
    }

    /** Closes a file opened by {@link #open}; stdout is only flushed (it is the command line's). */
    static void finish(Path file, PrintWriter out) {
        if (isStdout(file)) {
            out.flush();
        } else {
            out.close();
        }
    }
}
