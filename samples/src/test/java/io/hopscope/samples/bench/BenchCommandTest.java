package io.hopscope.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** How bench tells which JDK --java is, to refuse one the samples cannot run on (JDK 11) in one line. */
class BenchCommandTest {

    @Test
    void readsTheFeatureReleaseOfAJava() throws Exception {
        Path here = Path.of(System.getProperty("java.home"), "bin", "java");
        assertThat(BenchCommand.featureOf(here)).isEqualTo(Runtime.version().feature());
        assertThat(BenchCommand.featureOf(Path.of("/bin/true"))).as("a program that prints no version").isEqualTo(-1);
    }
}
