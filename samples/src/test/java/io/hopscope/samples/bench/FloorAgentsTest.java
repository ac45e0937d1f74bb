package io.hopscope.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.hopscope.samples.bench.agents.BootAppendAgent;
import io.hopscope.samples.bench.agents.EmptyAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The floor's agents as the measured JVM gets them: jars with their Premain-Class and classes, a JVM that runs
 * to its main under each, the bridge on the boot search path under boot-append and loaded by nobody until asked
 * for, and class-data sharing's warning exactly when sharing is on.
 */
class FloorAgentsTest {

    static final String CDS_WARNING =
            "Sharing is only supported for boot loader classes because bootstrap classpath has been appended";

    @TempDir
    Path dir;

    @Test
    void writesAgentJarsWithTheirPremainClassAndTheBridgeWithItsClasses() throws Exception {
        FloorAgents agents = FloorAgents.write(dir.resolve("agents"));

        try (JarFile empty = new JarFile(agents.emptyAgent().toFile())) {
            assertThat(empty.getManifest().getMainAttributes().getValue("Premain-Class")).isEqualTo(EmptyAgent.class.getName());
            assertThat(entries(empty)).containsExactly("META-INF/MANIFEST.MF", FloorAgents.entryName(EmptyAgent.class));
        }
        try (JarFile bootAppend = new JarFile(agents.bootAppendAgent().toFile())) {
            assertThat(bootAppend.getManifest().getMainAttributes().getValue("Premain-Class"))
                    .isEqualTo(BootAppendAgent.class.getName());
            assertThat(entries(bootAppend)).contains(FloorAgents.entryName(BootAppendAgent.class));
        }
        try (JarFile bridge = new JarFile(agents.bridge().toFile())) {
            assertThat(bridge.getManifest().getMainAttributes().getValue("Premain-Class")).isNull();
            assertThat(entries(bridge)).containsExactly("META-INF/MANIFEST.MF",
                    "io/hopscope/samples/bench/agents/bridge/BootBridge.class",
                    "io/hopscope/samples/bench/agents/bridge/BootBridge$Hooks.class",
                    "io/hopscope/samples/bench/agents/bridge/BootBridge$Context.class");
            JarEntry hooks = bridge.getJarEntry("io/hopscope/samples/bench/agents/bridge/BootBridge$Hooks.class");
            byte[] bytes = bridge.getInputStream(hooks).readAllBytes();
            assertThat(bytes).startsWith(0xCA, 0xFE, 0xBA, 0xBE);
        }
        assertThat(agents.bootAppendOption()).isEqualTo("-javaagent:" + agents.bootAppendAgent() + "=" + agents.bridge());
    }

    @Test
    void theBenchGivesEachFloorConfigurationItsAgent() throws Exception {
        BenchTools tools = new BenchTools(null, null, Path.of("java"), dir);

        assertThat(tools.jvmOptions(Configuration.EMPTY_AGENT, dir.resolve("run")))
                .containsExactly("-javaagent:" + dir.resolve("floor-agents").resolve(FloorAgents.EMPTY_AGENT_JAR));
        assertThat(tools.jvmOptions(Configuration.BOOT_APPEND, dir.resolve("run")))
                .containsExactly("-javaagent:" + dir.resolve("floor-agents").resolve(FloorAgents.BOOT_APPEND_AGENT_JAR) + "="
                        + dir.resolve("floor-agents").resolve(FloorAgents.BRIDGE_JAR));
    }

    @Test
    void aJvmRunsToItsMainUnderTheEmptyAgentWithSharingUntouched() throws Exception {
        FloorAgents agents = FloorAgents.write(dir);

        Probe probe = probe("-javaagent:" + agents.emptyAgent());

        assertThat(probe.out).as(probe.toString()).contains(FloorProbe.MAIN, "boot loader finds the bridge: false");
        assertThat(probe.err).doesNotContain(CDS_WARNING);
    }

    @Test
    void bootAppendPutsTheBridgeOnTheBootSearchPathAndLoadsNoneOfItsClasses() throws Exception {
        FloorAgents agents = FloorAgents.write(dir);

        Probe probe = probe(agents.bootAppendOption(), "-Xlog:class+load=info:stdout");

        String out = probe.out;
        int main = out.indexOf(FloorProbe.MAIN);
        assertThat(main).as(probe.toString()).isPositive();
        assertThat(out.substring(0, main)).as("bridge classes loaded before main")
                .doesNotContain("io.hopscope.samples.bench.agents.bridge.");
        assertThat(out).contains("boot loader finds the bridge: true")
                .contains("io.hopscope.samples.bench.agents.bridge.BootBridge source: " + agents.bridge());
    }

    @Test
    void bootAppendWarnsThatSharingIsLimitedExactlyWhenSharingIsOn() throws Exception {
        FloorAgents agents = FloorAgents.write(dir);

        Probe off = probe(agents.bootAppendOption(), "-Xshare:off");
        Probe auto = probe(agents.bootAppendOption());

        assertThat(off.out).as(off.toString()).contains("UseSharedSpaces false", "boot loader finds the bridge: true");
        assertThat(off.err).doesNotContain(CDS_WARNING);
        assumeThat(auto.out).as("class-data sharing is off in this JDK (no default archive): " + auto)
                .contains("UseSharedSpaces true");
        assertThat(auto.err).as(auto.toString()).contains(CDS_WARNING);
    }

    private static List<String> entries(JarFile jar) {
        return Collections.list(jar.entries()).stream().map(JarEntry::getName).toList();
    }

    /** {@link FloorProbe} on a JVM of its own with {@code options}; it must exit 0 within a minute. */
    private Probe probe(String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(options));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), FloorProbe.class.getName()));
        Path out = Files.createTempFile(dir, "probe", ".out");
        Path err = Files.createTempFile(dir, "probe", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean exited = p.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        Probe probe = new Probe(command, exited ? p.exitValue() : -1, Files.readString(out), Files.readString(err));
        assertThat(probe.exit).as(probe.toString()).isZero();
        return probe;
    }

    private record Probe(List<String> command, int exit, String out, String err) {

        @Override
        public String toString() {
            return command + ": exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }
}
