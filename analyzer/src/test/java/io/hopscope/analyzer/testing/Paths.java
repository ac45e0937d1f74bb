package io.hopscope.analyzer.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Paths the tests use: the repository (README), the corpus of other JVMs' recordings (test resources), the
 * jars the reactor builds before this module, and the java commands (this JDK's, the second one).
 */
public final class Paths {

    /**
     * The JIT and collector of the short-lived JVMs the tests start: C1 only and the serial collector.
     * A JVM with the agent spends most of the CPU of a run of seconds in C2 compiling the agent's work
     * (docs/performance.md, "First seconds"); C1 alone halves it (docs/performance.md, "Test suite"),
     * and what the tests assert (requests, hops, waits, exit codes) does not depend on which compiler
     * ran the code. The flags are the root pom's {@code test.jvm.flags}, which Maven passes in the
     * system property {@code hopscope.test.jvm.flags}. Tests of memory bounds or of the JIT keep the defaults.
     */
    public static List<String> shortJvmFlags() {
        String flags = System.getProperty("hopscope.test.jvm.flags");
        if (flags == null || flags.isBlank()) {
            throw new IllegalStateException("system property hopscope.test.jvm.flags is not set: run the tests"
                    + " through Maven (the root pom's test.jvm.flags)");
        }
        return List.of(flags.strip().split("\\s+"));
    }

    private Paths() {
    }

    public static Path moduleDir() {
        return Path.of(System.getProperty("hopscope.module", ".")).toAbsolutePath().normalize();
    }

    public static Path readme() {
        return moduleDir().resolve("../README.md").normalize();
    }

    public static Path samplesJar() {
        return moduleDir().resolve("../samples/target/hopscope-samples.jar").normalize();
    }

    public static Path agentJar() {
        return moduleDir().resolve("../agent/target/hopscope-agent.jar").normalize();
    }

    /** This JVM's java. */
    public static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** The start of a command line: {@code java} and {@link #shortJvmFlags}; a list to add to. */
    public static List<String> shortJvm(Path java) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(shortJvmFlags());
        return command;
    }

    /** The analyzer's own jar, which the tests that start {@code hopscope} as a user would run. */
    public static Path cliJar() {
        return moduleDir().resolve("target/hopscope.jar");
    }

    /**
     * Skips the test (with the reason) when this module is built alone, without the samples and agent
     * jars the reactor builds before it; fails it under CI, where the whole reactor is built.
     */
    public static void needBuiltJars() {
        needJars(samplesJar(), agentJar());
    }

    /** {@link #needBuiltJars} for the given jars. */
    public static void needJars(Path... jars) {
        List<Path> missing = new ArrayList<>();
        for (Path jar : jars) {
            if (!Files.isRegularFile(jar)) {
                missing.add(jar);
            }
        }
        CiSkip.unless(missing.isEmpty(), "needs " + missing + " (build the whole reactor: mvn package from the root)");
    }

    /**
     * The second JDK's java (21+, in HOPSCOPE_JDK2, which `make test` sets from
     * scripts/second-jdk.sh): the test is skipped without one, except under CI=true, where it fails.
     */
    public static Path secondJava() {
        String jdk = System.getenv("HOPSCOPE_JDK2");
        Path java = jdk == null || jdk.isEmpty() ? null : Path.of(jdk, "bin", "java");
        CiSkip.unless(java != null && Files.isExecutable(java), "no second JDK (21+) in HOPSCOPE_JDK2"
                + " (scripts/second-jdk.sh --install); HOPSCOPE_JDK2=" + jdk);
        return java;
    }

    /**
     * A JDK 11's java (HOPSCOPE_JDK11, which `make test` sets from scripts/jdk11.sh): the oldest JDK
     * the agent runs on; skipped without one, except under CI=true, where it fails.
     */
    public static Path jdk11Java() {
        String jdk = System.getenv("HOPSCOPE_JDK11");
        Path java = jdk == null || jdk.isEmpty() ? null : Path.of(jdk, "bin", "java");
        CiSkip.unless(java != null && Files.isExecutable(java), "no JDK 11 in HOPSCOPE_JDK11"
                + " (scripts/jdk11.sh --install); HOPSCOPE_JDK11=" + jdk);
        return java;
    }

    public static Path corpus() {
        return Path.of(System.getProperty("hopscope.corpus", moduleDir().resolve("src/test/resources/corpus").toString()))
                .toAbsolutePath().normalize();
    }
}
