package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How demo picks the JDK of its virtual-callers run: by each home's release file, newest first, runnable only. */
class JdkHomesTest {

    @TempDir
    Path jvms;

    @Test
    void newestRunnableHomeOfAtLeastTheVersionWins() throws Exception {
        home("java-8", "1.8.0_392", true);
        home("java-17", "17.0.15", true);
        home("jdk-21", "21.0.2", true);
        home("jdk-26-no-java", "26-ea", false);
        Files.createDirectories(jvms.resolve("not-a-jdk"));

        List<JdkHomes.Home> found = JdkHomes.under(jvms);

        assertThat(found).extracting(JdkHomes.Home::feature).containsExactly(17, 8, 21, 26);
        assertThat(JdkHomes.newest(21, found)).map(JdkHomes.Home::home).contains(jvms.resolve("jdk-21"));
        assertThat(JdkHomes.newest(22, found)).isEmpty();
    }

    @Test
    void atEqualVersionsTheFirstCandidateWins() throws Exception {
        JdkHomes.Home first = JdkHomes.read(home("a", "25.0.3", true)).orElseThrow();
        JdkHomes.Home second = JdkHomes.read(home("b", "25.0.1", true)).orElseThrow();

        assertThat(JdkHomes.newest(21, List.of(first, second))).contains(first);
    }

    @Test
    void missingDirectoryHoldsNoJdk() {
        assertThat(JdkHomes.under(jvms.resolve("absent"))).isEmpty();
    }

    private Path home(String name, String version, boolean withJava) throws Exception {
        Path home = Files.createDirectories(jvms.resolve(name));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        if (withJava) {
            Path java = Files.createFile(Files.createDirectories(home.resolve("bin")).resolve("java"));
            assertThat(java.toFile().setExecutable(true)).isTrue();
        }
        return home;
    }
}
