package io.hopscope.analyzer.command;

/** A user's problem that is not about the recording (an output file that cannot be written, a missing jar): one line, exit 2. */
public final class CliProblem extends Exception {

    public CliProblem(String message) {
        super(message);
    }
}
