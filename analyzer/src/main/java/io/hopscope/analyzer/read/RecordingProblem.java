package io.hopscope.analyzer.read;

/** Bad input data (not a user's misuse, not our bug): the CLI prints the message as one line and exits 2. */
public final class RecordingProblem extends Exception {

    public RecordingProblem(String message) {
        super(message);
    }

    public RecordingProblem(String message, Throwable cause) {
        super(message, cause);
    }
}
