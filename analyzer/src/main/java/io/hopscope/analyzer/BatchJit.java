package io.hopscope.analyzer;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.ObjectName;

/**
 * Keeps this JVM's JIT at C1 (what {@code -XX:TieredStopAtLevel=1} does), from inside, since
 * {@code java -jar} takes no JVM flags from the jar: one compiler directive that excludes every
 * method from C2, added through the {@code DiagnosticCommand} MBean ({@code jcmd}'s
 * {@code Compiler.directives_add}). A method C2 may not compile is compiled by C1 alone.
 *
 * <p>Why: the CLI is a one-pass batch over millions of events of a few types, and C2's compilations
 * of the parser and the handlers (big methods, deep inlining) never pay back. On the bench's 60 s
 * okhttp recording C2 was 40% of {@code report}'s CPU; without it the report takes about half the CPU
 * (docs/performance.md, "analyzer"). {@code -Dhopscope.c2=true} keeps C2; so do JVM flags that choose
 * a compiler policy themselves.
 */
final class BatchJit {

    private static final String NO_C2 = "[{ match: \"*.*\", c2: { Exclude: true } }]";

    private BatchJit() {
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
