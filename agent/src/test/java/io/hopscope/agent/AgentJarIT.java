package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import java.io.DataInputStream;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The shaded jar's own contents: relocated Byte Buddy, the bridge package, settings, manifest. */
class AgentJarIT {

    @Test
    void byteBuddyIsRelocatedAndTheManifestDeclaresTheAgent() throws Exception {
        try (JarFile jar = new JarFile(AgentRun.agentJar().toFile())) {
            List<String> names = jar.stream().map(JarEntry::getName).toList();
            // Nor under a multi-release version: the application's own Byte Buddy would be served those.
            assertThat(names).noneMatch(n -> n.startsWith("net/bytebuddy/") || n.matches("META-INF/versions/\\d+/net/.*"));
            assertThat(names).anyMatch(n -> n.startsWith("META-INF/versions/24/io/hopscope/agent/shaded/bytebuddy/"));
            assertThat(names).noneMatch(n -> n.startsWith("META-INF/maven/net.bytebuddy/"));
            assertThat(names).anyMatch(n -> n.startsWith("io/hopscope/agent/shaded/bytebuddy/agent/builder/"));
            assertThat(names).contains("io/hopscope/agent/bootstrap/Bridge.class", "io/hopscope/agent/bootstrap/HandoffHooks.class",
                    "hopscope.jfc");
            // The settings module, under the prefix the agent never transforms.
            assertThat(names).contains("io/hopscope/agent/shaded/settings/AgentOptions.class")
                    .noneMatch(n -> n.startsWith("io/hopscope/settings/"));
            // The instrumented libraries are never shipped inside the agent.
            assertThat(names).noneMatch(n -> n.startsWith("reactor/") || n.startsWith("com/azure/")
                    || n.startsWith("okhttp3/") || n.startsWith("io/netty/"));
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue("Premain-Class")).isEqualTo("io.hopscope.agent.HopscopeAgent");
            assertThat(main.getValue("Agent-Class")).isEqualTo("io.hopscope.agent.HopscopeAgent");
            assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
        }
    }

    @Test
    void theEntryClassLoadsOnJava8AndTheRestOnJdk11() throws Exception {
        try (JarFile jar = new JarFile(AgentRun.agentJar().toFile())) {
            // A JVM older than the agent loads the class the manifest names and hears why it stops there.
            assertThat(classFileMajor(jar, "io/hopscope/agent/HopscopeAgent.class")).isEqualTo(52);
            for (String agentClass : List.of("io/hopscope/agent/AgentStart.class", "io/hopscope/agent/AgentInstaller.class",
                    "io/hopscope/agent/bootstrap/Bridge.class", "io/hopscope/agent/shaded/settings/AgentOptions.class")) {
                assertThat(classFileMajor(jar, agentClass)).as(agentClass).isEqualTo(55);
            }
        }
    }

    /** The class file's major version (52 is Java 8, 55 Java 11). */
    private static int classFileMajor(JarFile jar, String entry) throws Exception {
        try (DataInputStream in = new DataInputStream(jar.getInputStream(jar.getEntry(entry)))) {
            assertThat(in.readInt()).isEqualTo(0xCAFEBABE);
            in.readUnsignedShort(); // minor
            return in.readUnsignedShort();
        }
    }
}
