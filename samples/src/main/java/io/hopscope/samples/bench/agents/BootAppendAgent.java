package io.hopscope.samples.bench.agents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.instrument.Instrumentation;
import java.util.jar.JarFile;

/**
 * The {@code boot-append} configuration's agent (issue #45): its premain only appends the jar its options
 * name to the boot class path, as hopscope does for its bridge, and loads none of its classes. Appending
 * turns class-data sharing off for the platform and application loaders ("Sharing is only supported for
 * boot loader classes because bootstrap classpath has been appended"): this agent measures that alone.
 */
public final class BootAppendAgent {

    private BootAppendAgent() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
        if (options == null || options.isEmpty()) {
            throw new IllegalArgumentException("boot-append agent: give the jar to append, -javaagent:<agent>.jar=<jar>");
        }
        try {
            instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(options));
        } catch (IOException e) {
            throw new UncheckedIOException("boot-append agent: cannot open " + options, e);
        }
    }
}
