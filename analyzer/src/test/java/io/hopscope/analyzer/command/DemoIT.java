package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hopscope demo} as a newcomer runs it, shortened to 1 s a run: both runs under the agent,
 * the diff printed, the folder written. Needs the samples and agent jars (built by the reactor
 * before this module); skipped with the reason when they are not there.
 */
class DemoIT {

    @TempDir
    Path dir;

    @Test
    void demoRunsBothSamplesAndPrintsTheDiff() throws Exception {
        Path home = Paths.moduleDir().getParent();
        assumeTrue(Files.isRegularFile(home.resolve(DemoCommand.SAMPLES_JAR))
                && Files.isRegularFile(home.resolve(DemoCommand.AGENT_JAR)), "needs the samples and agent jars");
        Path out = dir.resolve("demo");
        Cli r = Cli.run("demo", "--home", home.toString(), "--dir", out.toString(), "--duration", "1", "--parallel", "1");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("hopscope diff").contains("hops/request").contains("slowest requests of netty-sync-over-async:")
                .contains("written to " + out.toAbsolutePath());
        for (String f : new String[] {"okhttp-sync.jfr", "netty-sync-over-async.jfr", "okhttp-sync-report.txt",
                "okhttp-sync-report.json", "netty-sync-over-async-report.txt", "netty-sync-over-async-report.json", "diff.txt"}) {
            assertThat(out.resolve(f)).isNotEmptyFile();
        }
    }
}
