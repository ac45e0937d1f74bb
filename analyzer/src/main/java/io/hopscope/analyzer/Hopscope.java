package io.hopscope.analyzer;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The hopscope command line: per-request thread-hop reports from JFR recordings. */
@Command(name = "hopscope", mixinStandardHelpOptions = true, version = "hopscope 0.1.0",
        description = "Per-request thread-hop profiler for the JVM.")
public final class Hopscope implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new Hopscope()).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
