package io.hopscope.agent;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps the agent's own copy of Byte Buddy out of C2, so that its one-off work at the JVM's start
 * (retransforming the loaded JDK classes, matching and parsing every class the application loads)
 * runs as C1 code and leaves the C2 compiler threads to the application.
 *
 * <p>Why: in the first 10 s of the pipeline sample, C2 compiled 470 methods under the agent against
 * 236 without it, 168 of them Byte Buddy's (its class file reader, type pool and matchers), and C2
 * was the largest part of the agent's first-seconds CPU (docs/performance.md, "First seconds").
 * That code runs once per class loaded: C1's code is fast enough for it, and it never pays back
 * C2's compilations. The hooks ({@code io.hopscope.agent.runtime}, the bootstrap bridge) and the
 * advice inlined into the application's methods are not Byte Buddy's and stay C2's.
 *
 * <p>How: one compiler directive ({@code jcmd}'s {@code Compiler.directives_add}) excluding the
 * shaded package from C2; a method C2 may not compile is compiled at C1's level 1 for good, so the
 * directive is never removed (removing it would also pop whatever directive the application added
 * after it). The platform MBean server must not be created here, in premain (an application
 * server that installs its own MBean server builder would then break), so the command goes to
 * the JDK's {@code DiagnosticCommand} implementation directly, its package opened to the agent
 * through {@link Instrumentation#redefineModule} (the agent's module is the class path's unnamed one,
 * so the application's class path can reflect on that package too: nothing it could not do with
 * {@code --add-opens}). Any failure leaves the JIT as it was.
 * {@code -Dhopscope.c2=true} keeps C2 for Byte Buddy too (the A/B measurement's other side).
 */
final class StartupJit {

    /** The relocated Byte Buddy (agent/pom.xml's shade relocation), as the JIT names classes. */
    static final String SHADED_PACKAGE = "io/hopscope/agent/shaded/";
    static final String DIRECTIVE = "[{ match: \"" + SHADED_PACKAGE + "*.*\", c2: { Exclude: true } }]";

    private static final String MANAGEMENT_MODULE = "jdk.management";
    private static final String COMMAND_PACKAGE = "com.sun.management.internal";
    private static final String COMMAND_CLASS = COMMAND_PACKAGE + ".DiagnosticCommandImpl";

    private StartupJit() {
    }

    /**
     * Adds the directive unless {@code -Dhopscope.c2=true}; never throws. Returns what happened, one
     * line, which {@code -Dhopscope.debug=true} prints.
     */
    static String keepByteBuddyOutOfC2(Instrumentation instrumentation) {
        String outcome;
        try {
            outcome = Boolean.getBoolean("hopscope.c2") ? "C2 kept for Byte Buddy (-Dhopscope.c2=true)"
                    : addDirective(instrumentation);
        } catch (InvocationTargetException e) {
            outcome = "C2 kept for Byte Buddy: " + e.getCause();
        } catch (Throwable t) {
            outcome = "C2 kept for Byte Buddy: " + t;
        }
        if (Boolean.getBoolean("hopscope.debug")) {
            System.err.println("hopscope: " + outcome);
        }
        return outcome;
    }

    private static String addDirective(Instrumentation instrumentation) throws Exception {
        Optional<Module> management = ModuleLayer.boot().findModule(MANAGEMENT_MODULE);
        if (management.isEmpty()) {
            return "C2 kept for Byte Buddy: no " + MANAGEMENT_MODULE + " module in this runtime";
        }
        Class<?> commands = Class.forName(management.get(), COMMAND_CLASS);
        if (commands == null) {
            return "C2 kept for Byte Buddy: no " + COMMAND_CLASS + " in this runtime";
        }
        Module agent = StartupJit.class.getModule();
        if (!management.get().isOpen(COMMAND_PACKAGE, agent)) {
            instrumentation.redefineModule(management.get(), Set.of(), Map.of(),
                    Map.of(COMMAND_PACKAGE, Set.of(agent)), Set.of(), Map.of());
        }
        // Its native methods are in libmanagement_ext, which the provider's class loads when initialised.
        Class.forName(COMMAND_PACKAGE + ".PlatformMBeanProviderImpl", true, commands.getClassLoader());
        Method factory = commands.getDeclaredMethod("getDiagnosticCommandMBean");
        factory.setAccessible(true);
        Object mbean = factory.invoke(null);
        if (mbean == null) {
            return "C2 kept for Byte Buddy: this JVM runs no diagnostic commands from Java";
        }
        Method execute = commands.getDeclaredMethod("executeDiagnosticCommand", String.class);
        execute.setAccessible(true);
        Path file = Files.createTempFile("hopscope-jit-", ".json");
        try {
            Files.writeString(file, DIRECTIVE, StandardCharsets.UTF_8);
            String output = String.valueOf(execute.invoke(mbean, "Compiler.directives_add " + file)).trim()
                    .replace('\n', ' ');
            return output.startsWith("1 compiler directives added") ? "C2 off for " + SHADED_PACKAGE + " (" + output + ")"
                    : "C2 kept for Byte Buddy: " + output;
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
