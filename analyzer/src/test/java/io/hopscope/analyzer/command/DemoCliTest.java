package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Cli;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code demo}'s misuse and its message when the jars it runs are not built (the run itself: AgentRecordingIT, README). */
class DemoCliTest {

    @TempDir
    Path dir;

    @Test
    void badDurationIsUsage() {
        Cli r = Cli.run("demo", "--duration", "0");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--duration and --parallel must be >= 1").contains("Usage: hopscope demo");
    }

    @Test
    void aVirtualJdkOlderThan21IsUsage() throws Exception {
        Path jdk17 = java.nio.file.Files.createDirectories(dir.resolve("jdk17").resolve("bin"));
        java.nio.file.Files.writeString(jdk17.resolveSibling("release"), "JAVA_VERSION=\"17.0.15\"\n");
        Cli r = Cli.run("demo", "--virtual-jdk", jdk17.getParent().toString(), "--dir", dir.resolve("out").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--virtual-jdk: " + jdk17.getParent() + " is JDK 17 without bin/java; the"
                + " virtual-callers run needs 21 or later").contains("Usage: hopscope demo");

        Cli none = Cli.run("demo", "--virtual-jdk", dir.toString(), "--dir", dir.resolve("out").toString());
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("--virtual-jdk: " + dir + " is no JDK home");
    }

    @Test
    void missingJarsSayWhatToBuild() {
        Cli r = Cli.run("demo", "--home", dir.toString(), "--dir", dir.resolve("out").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).isEqualTo("hopscope: demo: samples/target/hopscope-samples.jar and "
                + "agent/target/hopscope-agent.jar not found under " + dir.toAbsolutePath().normalize()
                + "; build them first with 'make build' (or give --home)");
    }

    @Test
    void helpShowsAnExample() {
        Cli r = Cli.run("demo", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Example: hopscope demo --duration 5");
    }
}
