package io.hopscope.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * How bench tells which JDK --java is, to refuse one the samples cannot run on (JDK 11) in one line; which
 * configurations it runs when none are named.
 */
class BenchCommandTest {

    @Test
    void readsTheFeatureReleaseOfAJava() throws Exception {
        Path here = Path.of(System.getProperty("java.home"), "bin", "java");
        assertThat(BenchCommand.featureOf(here)).isEqualTo(Runtime.version().feature());
        assertThat(BenchCommand.featureOf(Path.of("/bin/true"))).as("a program that prints no version").isEqualTo(-1);
    }

    @Test
    void theFloorsAgentsRunOnlyWhenNamed() {
        BenchCommand defaults = new BenchCommand();
        new CommandLine(defaults).parseArgs();
        BenchCommand named = new BenchCommand();
        new CommandLine(named).parseArgs("--configs", "none,empty-agent,boot-append,hopscope");

        // The default bench is as long as it was: the floor is issue #45's measurement, asked for by name.
        assertThat(defaults.configs()).contains(Configuration.NONE, Configuration.HOPSCOPE, Configuration.OTEL)
                .doesNotContain(Configuration.EMPTY_AGENT, Configuration.BOOT_APPEND);
        assertThat(named.configs()).containsExactly(Configuration.NONE, Configuration.EMPTY_AGENT,
                Configuration.BOOT_APPEND, Configuration.HOPSCOPE);
    }
}
