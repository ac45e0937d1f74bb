package io.hopscope.analyzer.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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

    /** Skips the test (with the reason) when this module is built alone, without the other jars. */
    public static void assumeBuiltJars() {
        assumeTrue(Files.isRegularFile(samplesJar()) && Files.isRegularFile(agentJar()),
                "needs " + samplesJar() + " and " + agentJar() + " (build the whole reactor)");
    }

    /**
     * The second JDK's java (21+, in HOPSCOPE_JDK2, which `make test` sets from
     * scripts/second-jdk.sh): the test is skipped without one, except under CI=true, where it fails.
     */
    public static Path secondJava() {
        String jdk = System.getenv("HOPSCOPE_JDK2");
        Path java = jdk == null || jdk.isEmpty() ? null : Path.of(jdk, "bin", "java");
        boolean present = java != null && Files.isExecutable(java);
        if ("true".equals(System.getenv("CI"))) {
            assertThat(present).as("CI=true needs a second JDK (21+) in HOPSCOPE_JDK2 (scripts/second-jdk.sh --install);"
                    + " HOPSCOPE_JDK2=%s", jdk).isTrue();
        }
        assumeTrue(present, "no second JDK (21+) in HOPSCOPE_JDK2");
        return java;
    }

    /**
     * A JDK 11's java (HOPSCOPE_JDK11, which `make test` sets from scripts/jdk11.sh): the oldest JDK
     * the agent runs on; skipped without one, except under CI=true, where it fails.
     */
    public static Path jdk11Java() {
        String jdk = System.getenv("HOPSCOPE_JDK11");
        Path java = jdk == null || jdk.isEmpty() ? null : Path.of(jdk, "bin", "java");
        boolean present = java != null && Files.isExecutable(java);
        if ("true".equals(System.getenv("CI"))) {
            assertThat(present).as("CI=true needs a JDK 11 in HOPSCOPE_JDK11 (scripts/jdk11.sh --install);"
                    + " HOPSCOPE_JDK11=%s", jdk).isTrue();
        }
        assumeTrue(present, "no JDK 11 in HOPSCOPE_JDK11");
        return java;
    }

    public static Path corpus() {
        return Path.of(System.getProperty("hopscope.corpus", moduleDir().resolve("src/test/resources/corpus").toString()))
                .toAbsolutePath().normalize();
    }
}
