package io.hopscope.analyzer.testing;

import io.hopscope.analyzer.Hopscope;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the CLI in this JVM and captures what it printed, as a user would see it. */
public record Cli(int exitCode, String out, String err) {

    public static Cli run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Hopscope.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Cli(code, out.toString(), err.toString());
    }
}
