package io.hopscope.agent.testing;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The samples build's relocated jar (Netty and Reactor moved under com.example.shaded, the
 * way an SDK shades them), a real relocated copy for the agent's relocation tests.
 */
public final class RelocatedSamples {

    /** Where the copy of Netty went. */
    public static final String NETTY = "com.example.shaded.io.netty";

    private RelocatedSamples() {
    }

    public static Path jar() {
        return SamplesJar.path().resolveSibling("hopscope-samples-relocated.jar");
    }

    public static boolean built() {
        return Files.isRegularFile(jar());
    }

    /** Skips the test, saying why, when the relocated jar is not built; fails it under CI. */
    public static void need() {
        CiSkip.unless(built(), "no relocated samples jar at " + jar() + ": build the samples first (mvn package from the root)");
    }

    /** A loader of the relocated jar alone (the JDK beside it). */
    public static URLClassLoader loader() throws Exception {
        return new URLClassLoader("relocated-samples", new URL[] {jar().toUri().toURL()},
                ClassLoader.getPlatformClassLoader());
    }
}
