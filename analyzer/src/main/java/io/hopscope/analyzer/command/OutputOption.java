package io.hopscope.analyzer.command;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code -o/--output FILE}: where a command that writes to stdout writes instead ({@code @Mixin} it). */
public final class OutputOption {

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write here instead of stdout (- is stdout).")
    Path file;
}
