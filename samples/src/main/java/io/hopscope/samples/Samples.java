package io.hopscope.samples;

import io.hopscope.samples.bench.BenchCommand;
import io.hopscope.samples.common.ResponseCheckException;
import io.hopscope.samples.common.RunFigures;
import io.hopscope.samples.jdkhttp.JdkHttpCommand;
import io.hopscope.samples.knownpath.KnownPathCommand;
import io.hopscope.samples.openloop.OpenLoopCommand;
import io.hopscope.samples.pipeline.PipelineCommand;
import io.hopscope.samples.serve.ServeCommand;
import io.hopscope.samples.server.ServerCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The sample workloads: real clients and a real server on 127.0.0.1 whose requests hop threads. */
@Command(name = "hopscope-samples", mixinStandardHelpOptions = true, version = "hopscope-samples 0.1.0",
        description = "Workloads that reproduce the sync-stack, sync-over-async and server (serve) studies.",
        subcommands = {ServerCommand.class, PipelineCommand.class, JdkHttpCommand.class,
                OpenLoopCommand.class, ServeCommand.class, KnownPathCommand.class, BenchCommand.class})
public final class Samples implements Runnable {

    /** Exit code of a response that failed validation. */
    public static final int EXIT_BAD_RESPONSE = 1;
    /** Exit code of a usage error (bad option, unreachable --uri). */
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        RunFigures.mainEntered();
        // Jetty and azure-core log through SLF4J; without a provider SLF4J prints three warning
        // lines on every start, which would spoil the one-line errors. Unless the user chose one.
        if (System.getProperty("slf4j.provider") == null) {
            System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
        int code = commandLine().execute(args);
        // Client libraries leave pools and event loops behind; the run is over, so end the JVM.
        System.exit(code);
    }

    /** The command line with the error handling every entry point (main, tests) shares. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Samples());
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println(ex.getCommandLine().getCommandName() + ": " + ex.getMessage());
            err.flush();
            return EXIT_USAGE;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof ResponseCheckException) {
                PrintWriter err = commandLine.getErr();
                err.println(commandLine.getCommandName() + ": bad response: " + ex.getMessage());
                err.flush();
                return EXIT_BAD_RESPONSE;
            }
            // Not the user's mistake: an internal error keeps its stack trace.
            throw ex;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
