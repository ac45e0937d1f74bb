package io.hopscope.samples.bench;

import io.hopscope.samples.bench.agents.BootAppendAgent;
import io.hopscope.samples.bench.agents.EmptyAgent;
import io.hopscope.samples.bench.agents.bridge.BootBridge;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The java agents of issue #45's floor, {@code empty-agent} and {@code boot-append}, and the jar the latter
 * appends to the boot class path: real agent jars, written from the samples' own compiled classes into a
 * folder at run time, so the floor needs nothing outside the repository. The measured JVM still finds the
 * agent classes on its class path first (the samples jar comes before the agent jar there): one lookup more
 * in the samples jar, the same for both.
 */
record FloorAgents(Path emptyAgent, Path bootAppendAgent, Path bridge) {

    static final String EMPTY_AGENT_JAR = "empty-agent.jar";
    static final String BOOT_APPEND_AGENT_JAR = "boot-append-agent.jar";
    static final String BRIDGE_JAR = "boot-append-bridge.jar";

    /** The bridge's classes: a few, as hopscope's bridge jar holds. */
    static final List<Class<?>> BRIDGE_CLASSES = List.of(BootBridge.class, BootBridge.Hooks.class, BootBridge.Context.class);

    /** Writes the three jars into {@code dir} (made when missing). */
    static FloorAgents write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path empty = agentJar(dir.resolve(EMPTY_AGENT_JAR), EmptyAgent.class);
        Path bootAppend = agentJar(dir.resolve(BOOT_APPEND_AGENT_JAR), BootAppendAgent.class);
        Path bridge = jar(dir.resolve(BRIDGE_JAR), null, BRIDGE_CLASSES);
        return new FloorAgents(empty, bootAppend, bridge);
    }

    /** The -javaagent option of {@code boot-append}: its agent, given the bridge jar to append. */
    String bootAppendOption() {
        return "-javaagent:" + bootAppendAgent + "=" + bridge;
    }

    private static Path agentJar(Path jar, Class<?> premainClass) throws IOException {
        return jar(jar, premainClass, List.of(premainClass));
    }

    /** A jar of {@code classes}' bytes as the samples' class path holds them, an agent's when {@code premainClass}. */
    static Path jar(Path jar, Class<?> premainClass, List<Class<?>> classes) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (premainClass != null) {
            manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), premainClass.getName());
        }
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (Class<?> c : classes) {
                String entry = entryName(c);
                try (InputStream in = FloorAgents.class.getClassLoader().getResourceAsStream(entry)) {
                    if (in == null) {
                        throw new IOException(entry + " is not on the samples' class path");
                    }
                    out.putNextEntry(new JarEntry(entry));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
        return jar;
    }

    static String entryName(Class<?> c) {
        return c.getName().replace('.', '/') + ".class";
    }
}
