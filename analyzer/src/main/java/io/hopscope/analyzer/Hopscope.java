package io.hopscope.analyzer;

import io.hopscope.analyzer.command.AttachCommand;
import io.hopscope.analyzer.command.CliProblem;
import io.hopscope.analyzer.command.DemoCommand;
import io.hopscope.analyzer.command.DiffCommand;
import io.hopscope.analyzer.command.ExportCommand;
import io.hopscope.analyzer.command.FlameCommand;
import io.hopscope.analyzer.command.LiveCommand;
import io.hopscope.analyzer.command.RecordCommand;
import io.hopscope.analyzer.command.ReportCommand;
import io.hopscope.analyzer.command.TraceCommand;
import io.hopscope.analyzer.read.RecordingProblem;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The hopscope command line: per-request thread-hop reports from JFR recordings.
 *
 * <p>Exit codes: 0 done; 2 bad usage (the usage is printed) or bad data (one lower-case line naming
 * the file and the problem); 1 an internal error, with its stack trace, because that is our bug.
 */
@Command(name = "hopscope", mixinStandardHelpOptions = true, version = "hopscope 0.1.0",
        description = {"Per-request thread-hop profiler for the JVM: reads JFR recordings made under the hopscope agent.",
                "",
                "Example: hopscope report app.jfr"},
        subcommands = {ReportCommand.class, DiffCommand.class, TraceCommand.class, FlameCommand.class,
                DemoCommand.class, AttachCommand.class, LiveCommand.class, RecordCommand.class, ExportCommand.class})
public final class Hopscope implements Runnable {

    /** Exit code for bad data (picocli already uses 2 for bad usage). */
    public static final int EXIT_BAD_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        BatchJit.forCommandLine(args);
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(execute(args, out, err));
    }

    /** Runs the command line with the given streams; returns the exit code (tests call this directly). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Hopscope());
        cl.setOut(out);
        cl.setErr(err);
        // Bad usage: the message, picocli's suggestions if any ("Did you mean"), and always the usage.
        cl.setParameterExceptionHandler((ex, args2) -> {
            CommandLine command = ex.getCommandLine();
            err.println(ex.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
            command.usage(err, command.getColorScheme());
            err.flush();
            return command.getCommandSpec().exitCodeOnInvalidInput();
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof RecordingProblem || ex instanceof CliProblem) {
                err.println("hopscope: " + ex.getMessage());
                err.flush();
                return EXIT_BAD_INPUT;
            }
            ex.printStackTrace(err);
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    @Override
    public void run() {
        // No subcommand is a usage error: say what there is, exit 2.
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing subcommand: report, diff, trace, flame, demo, attach, live, record or export");
    }
}
