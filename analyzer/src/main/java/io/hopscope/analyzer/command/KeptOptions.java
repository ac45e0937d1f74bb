package io.hopscope.analyzer.command;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --top N|all} and {@code --sample N}: which requests a command keeps in detail, one idea for
 * {@code report} and {@code trace} ({@code @Mixin} it): the worst N by the sort field, then up to
 * {@code --sample} more of the rest, every k-th by request id, or every request.
 */
public final class KeptOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--top", paramLabel = "N|all",
            description = "How many of the worst requests to keep in detail (report: 5 for text, 10 for html, 100 for"
                    + " json; trace: 100; 0: none); all: every request.")
    String top;

    @Option(names = "--sample", paramLabel = "N",
            description = "Up to N more of the rest besides the worst, every k-th by request id (k a power of two, the"
                    + " smallest that fits; json and trace: 400 by default, text: 0).")
    Integer sample;

    /** Whether {@code --top all} was given. */
    boolean all() {
        return "all".equals(top);
    }

    /** {@code --top} as AnalysisOptions takes it (-1: every request), {@code byDefault} when not given. */
    int top(int byDefault) {
        if (top == null) {
            return byDefault;
        }
        if (all()) {
            return -1;
        }
        int n;
        try {
            n = Integer.parseInt(top.strip());
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "--top takes a number or all, got '" + top + "'");
        }
        if (n < 0) {
            throw new ParameterException(spec.commandLine(), "--top must be >= 0, got " + n);
        }
        return n;
    }

    /** {@code --sample}, {@code byDefault} when not given; 0 when every request is kept. */
    int sample(int byDefault) {
        if (sample != null && sample < 0) {
            throw new ParameterException(spec.commandLine(), "--sample must be >= 0, got " + sample);
        }
        if (sample != null && sample > 0 && (all() || top(1) == 0)) {
            throw new ParameterException(spec.commandLine(), "--sample goes with --top N of 1 or more"
                    + " (--top all keeps every request, --top 0 none)");
        }
        return all() || top(1) == 0 ? 0 : sample != null ? sample : byDefault;
    }
}
