package io.hopscope.samples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One in-process run of the samples command line, with what it printed and its exit code. */
final class Run {

    final int exitCode;
    final String out;
    final String err;

    private Run(int exitCode, String out, String err) {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
    }

    /** Runs the command as main would, minus System.exit; scenarios print to System.out. */
    static synchronized Run of(String... args) {
        PrintStream savedOut = System.out;
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int code;
        try (PrintStream captured = new PrintStream(outBytes, true, StandardCharsets.UTF_8)) {
            System.setOut(captured);
            code = Samples.commandLine().setErr(new PrintWriter(err, true)).execute(args);
        } finally {
            System.setOut(savedOut);
        }
        return new Run(code, outBytes.toString(StandardCharsets.UTF_8), err.toString());
    }

    /** The value of a {@code key: value} figure line. */
    String figure(String key) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(key) + ": (.*)$").matcher(out);
        if (!m.find()) {
            throw new AssertionError("no '" + key + ":' line in output:\n" + out + "\nstderr:\n" + err);
        }
        return m.group(1).trim();
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
}
