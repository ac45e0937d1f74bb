package io.hopscope.samples.common;

import java.util.Arrays;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Option checks shared by the subcommands, each with its one wording: a failed check is a usage error
 * (exit 2, one line naming the option). A value of null is an option not given, which passes.
 */
public final class Options {

    private Options() {
    }

    public static void check(CommandSpec spec, boolean ok, String message) {
        if (!ok) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    /** {@code OPTION must be >= MIN, got VALUE}. */
    public static void atLeast(CommandSpec spec, String option, Number value, long min) {
        check(spec, value == null || value.doubleValue() >= min, option + " must be >= " + min + ", got " + value);
    }

    /** {@code OPTION must be > MIN, got VALUE}. */
    public static void above(CommandSpec spec, String option, Number value, long min) {
        check(spec, value == null || value.doubleValue() > min, option + " must be > " + min + ", got " + value);
    }

    /** {@code OPTION must be MIN..MAX, got VALUE}. */
    public static void within(CommandSpec spec, String option, Number value, long min, long max) {
        check(spec, value == null || value.doubleValue() >= min && value.doubleValue() <= max,
                option + " must be " + min + ".." + max + ", got " + value);
    }

    /** {@code OPTION must be A, B or C, got 'VALUE'}. */
    public static void oneOf(CommandSpec spec, String option, String value, String... choices) {
        String last = choices[choices.length - 1];
        String listed = choices.length == 1 ? last
                : String.join(", ", Arrays.copyOf(choices, choices.length - 1)) + " or " + last;
        check(spec, value == null || Arrays.asList(choices).contains(value),
                option + " must be " + listed + ", got '" + value + "'");
    }
}
