package io.hopscope.agent;

import io.hopscope.settings.AttachProperties;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * The agent's start once {@link HopscopeAgent} has found the JDK recent enough: checks that the JVM
 * has the modules the agent needs, puts the bootstrap bridge on the bootstrap class path, then
 * hands over to {@link AgentInstaller}. This class must not touch the bridge's classes itself: they
 * have to be loaded by the bootstrap loader, from the jar appended here, and nowhere else.
 */
public final class AgentStart {

    static final String BRIDGE_PACKAGE = "io/hopscope/agent/bootstrap/";

    /**
     * The modules the agent cannot do without: JFR, which its events are, and the JDK's thread
     * counters (com.sun.management.ThreadMXBean, a segment's allocation). A JVM started with
     * {@code --limit-modules}, or a jlink image, may lack them; the agent then installs nothing.
     */
    static final List<String> MODULES = List.of("jdk.jfr", "jdk.management");

    private AgentStart() {
    }

    /** Called by HopscopeAgent through reflection (premain: late false; agentmain: true). */
    public static synchronized void start(String options, Instrumentation instrumentation, boolean late) {
        List<String> missing = MODULES.stream().filter(m -> ModuleLayer.boot().findModule(m).isEmpty())
                .collect(Collectors.toList());
        if (!missing.isEmpty()) {
            System.err.println("hopscope: needs the JDK module" + (missing.size() > 1 ? "s " : " ")
                    + String.join(", ", missing) + ", which this JVM lacks (--limit-modules, or a jlink image without"
                    + (missing.size() > 1 ? " them" : " it") + "); the application runs without it");
            return;
        }
        if (System.getProperty(AttachProperties.STARTED) != null) {
            System.err.println("hopscope: agent already started in this JVM; ignoring the second start");
            return;
        }
        System.setProperty(AttachProperties.STARTED, "true");
        try {
            StartupJit.keepByteBuddyOutOfC2(instrumentation); // first: before Byte Buddy's code gets hot
            instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(bridgeJar().toFile()));
            AgentInstaller.install(options, instrumentation, late);
        } catch (Throwable t) {
            // Whatever went wrong, the application starts: the agent is off, and says so.
            System.err.println("hopscope: agent not started (" + t + "); the application runs without it");
        }
    }

    /** Copies the bridge package out of the agent jar into a temporary jar of its own. */
    private static Path bridgeJar() throws IOException {
        Path jar = Files.createTempFile("hopscope-bootstrap-", ".jar");
        jar.toFile().deleteOnExit();
        Path agentJar;
        try {
            agentJar = Path.of(AgentStart.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IOException("cannot locate the agent jar", e);
        }
        int classes = 0;
        try (JarFile source = new JarFile(agentJar.toFile());
                JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (JarEntry entry : java.util.Collections.list(source.entries())) {
                if (entry.getName().startsWith(BRIDGE_PACKAGE) && entry.getName().endsWith(".class")) {
                    out.putNextEntry(new JarEntry(entry.getName()));
                    try (InputStream in = source.getInputStream(entry)) {
                        in.transferTo(out);
                    }
                    out.closeEntry();
                    classes++;
                }
            }
        }
        if (classes == 0) {
            throw new IOException("no " + BRIDGE_PACKAGE + " classes in " + agentJar
                    + " (use the shaded agent/target/hopscope-agent.jar)");
        }
        return jar;
    }
}
