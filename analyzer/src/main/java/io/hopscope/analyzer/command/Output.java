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
            Path parent = file.toAbsolutePath().getParent();
            String why = parent != null && !Files.isDirectory(parent) ? "its directory does not exist"
                    : "not writable";
            throw new CliProblem(file + ": cannot write output file, " + why);
        }
    }
}
