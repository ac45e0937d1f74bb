package io.hopscope.analyzer.command;

import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/** {@code RECORDING.jfr}, the first parameter of a command that reads a recording made under the agent ({@code @Mixin} it). */
public final class RecordingParameter {

    @Parameters(index = "0", paramLabel = "RECORDING.jfr", description = "A JFR recording made under the hopscope agent.")
    Path file;
}
