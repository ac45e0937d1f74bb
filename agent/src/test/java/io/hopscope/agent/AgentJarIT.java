package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
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
}
