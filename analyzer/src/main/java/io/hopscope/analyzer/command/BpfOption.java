package io.hopscope.analyzer.command;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --bpf FILE}: bpf/offwake.py output of the same process, for a command's eBPF join ({@code @Mixin} it). */
public final class BpfOption {

    @Option(names = "--bpf", paramLabel = "FILE",
            description = "bpf/offwake.py output of the same process and time: --events JSON Lines (per request:"
                    + " off-CPU time, run queue, wakers), or for report and flame offwaketime -f folded output (the"
                    + " whole process only), told apart by content. flame: with --kind offwake.")
    Path file;

    /** Whether the option was given. */
    boolean isSet() {
        return file != null;
    }
}
