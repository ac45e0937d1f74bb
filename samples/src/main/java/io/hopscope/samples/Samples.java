package io.hopscope.samples;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The sample workloads: real clients and a real server on 127.0.0.1 whose requests hop threads. */
@Command(name = "hopscope-samples", mixinStandardHelpOptions = true, version = "hopscope-samples 0.1.0",
        description = "Workloads that reproduce the sync-stack and sync-over-async studies.")
public final class Samples implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new Samples()).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
