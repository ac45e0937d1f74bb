package io.hopscope.analyzer.command;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where a command writes: {@code -o FILE}, or the command line's stdout. */
final class Output {

    private Output() {
    }

    static PrintWriter open(Path file, PrintWriter stdout) throws CliProblem {
        if (file == null) {
            return stdout;
        }
        try {
            return new PrintWriter(new OutputStreamWriter(Files.newOutputStream(file), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new CliProblem(file + ": cannot write output file (" + e.getClass().getSimpleName()
                    + "); check that the directory exists and is writable");
        }
    }
}
