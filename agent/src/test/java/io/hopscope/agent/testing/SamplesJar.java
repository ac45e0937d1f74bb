package io.hopscope.agent.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;

/** The samples module's jar, which the agent's integration tests run under the agent. */
public final class SamplesJar {

    private SamplesJar() {
    }

    public static Path path() {
        return Path.of(System.getProperty("hopscope.samples.jar", "../samples/target/hopscope-samples.jar"))
                .toAbsolutePath();
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
