package io.hopscope.analyzer;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import javax.management.ObjectName;

/**
 * Keeps this JVM's JIT at C1 (what {@code -XX:TieredStopAtLevel=1} does), from inside, since
 * {@code java -jar} takes no JVM flags from the jar: one compiler directive that excludes every
 * method from C2, added through the {@code DiagnosticCommand} MBean ({@code jcmd}'s
 * {@code Compiler.directives_add}). A method C2 may not compile is compiled by C1 alone.
 *
 * <p>Why: the CLI is a one-pass batch over millions of events of a few types, and C2's compilations
 * of the parser and the handlers (big methods, deep inlining) never pay back (the figures:
 * docs/performance.md, "analyzer"). The gain shrinks as the input grows, since C1's code is slower
 * per event, so only the batch commands over files of {@value #MAX_INPUT_BYTES} bytes or less get
 * it, and never {@code live}, {@code record} or {@code demo}, which run for as long as their target
 * does. {@code -Dhopscope.c2=true} keeps C2; so do JVM flags that choose a compiler policy themselves.
 */
final class BatchJit {

    private static final String NO_C2 = "[{ match: \"*.*\", c2: { Exclude: true } }]";

    /** Where C2 is kept: the break-even is somewhere above 155 MB, not measured. */
    static final long MAX_INPUT_BYTES = 512L * 1024 * 1024;
    private static final Set<String> BATCH_COMMANDS = Set.of("report", "diff", "flame", "trace", "export");

    private BatchJit() {
    }

    /** {@link #c1Only()} for a command line {@link #isSmallBatch} says is one. */
    static void forCommandLine(String[] args) {
        if (isSmallBatch(args)) {
            c1Only();
        }
    }

    /** Whether {@code args} run a batch command whose input files add up to at most {@link #MAX_INPUT_BYTES}. */
    static boolean isSmallBatch(String[] args) {
        if (args.length == 0 || !BATCH_COMMANDS.contains(args[0])) {
            return false;
        }
        long bytes = 0;
        for (String arg : args) {
            try {
                Path p = Path.of(arg);
                if (Files.isRegularFile(p)) {
                    bytes += Files.size(p);
                }
            } catch (IOException | RuntimeException notAFile) {
                // An option or an unreadable path: the command says what is wrong with it.
            }
        }
        return bytes <= MAX_INPUT_BYTES;
    }

    /** Adds the directive unless told not to; a JVM without the MBean or the command keeps its JIT. */
    static void c1Only() {
        if (Boolean.getBoolean("hopscope.c2")) {
            return;
        }
        Path directives = null;
        try {
            directives = Files.createTempFile("hopscope-jit-", ".json");
            Files.writeString(directives, NO_C2, StandardCharsets.UTF_8);
            ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "compilerDirectivesAdd", new Object[] {new String[] {directives.toString()}},
                    new String[] {String[].class.getName()});
        } catch (IOException | javax.management.JMException | RuntimeException unavailable) {
            // Another JVM, or the management module left out: the default JIT, only slower.
        } finally {
            if (directives != null) {
                try {
                    Files.deleteIfExists(directives);
                } catch (IOException ignored) {
                    // A temporary file left behind.
                }
            }
        }
    }
}
