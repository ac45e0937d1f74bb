package io.hopscope.agent.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/** The samples module's jar, which the agent's integration tests run under the agent. */
public final class SamplesJar {

    private SamplesJar() {
    }

    public static Path path() {
        return Path.of(System.getProperty("hopscope.samples.jar", "../samples/target/hopscope-samples.jar"))
                .toAbsolutePath();
    }

    /** The samples' own classes, beside the jar (target/classes). */
    public static Path classes() {
        return path().resolveSibling("classes");
    }

    /** The samples' libraries as separate jars (target/lib, which the samples' build fills), sorted. */
    public static List<Path> libraries() throws IOException {
        Path dir = path().resolveSibling("lib");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> jars = Files.list(dir)) {
            return jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
    }

    /**
     * Skips the test, saying why, when the samples jar or the given scenario's class in it is missing
     * (the reactor builds the samples before the agent; `-pl agent` alone does not); fails it under CI.
     */
    public static void need(String classResource) {
        CiSkip.unless(has(classResource), "no " + classResource + " in the samples jar at " + path()
                + ": build the samples first (mvn package from the root)");
    }

    /** {@link #need} for the samples' classes and libraries beside the jar (target/classes, target/lib). */
    public static void needClassesAndLibraries() throws IOException {
        CiSkip.unless(Files.isDirectory(classes()) && !libraries().isEmpty(), "no samples classes and libraries beside "
                + path() + ": build the samples first (mvn package from the root)");
    }

    /** Whether the samples jar has the given scenario's class (the samples are built before the agent). */
    public static boolean has(String classResource) {
        if (!Files.isRegularFile(path())) {
            return false;
        }
        try (JarFile jar = new JarFile(path().toFile())) {
            return jar.getEntry(classResource) != null;
        } catch (Exception e) {
            return false;
        }
    }
}
