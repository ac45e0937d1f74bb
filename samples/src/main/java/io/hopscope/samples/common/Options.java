package io.hopscope.samples.common;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Option checks shared by the subcommands; a failed check is a usage error (exit 2, one line). */
public final class Options {

    private Options() {
    }

    public static void check(CommandSpec spec, boolean ok, String message) {
        if (!ok) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }
}
