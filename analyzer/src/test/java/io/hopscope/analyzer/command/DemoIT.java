package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hopscope demo} as a newcomer runs it, shortened to 1 s a run: every run under the agent
 * (the virtual-callers one where a JDK 21+ is found, else one line saying it is skipped), the diffs
 * printed, the folder written. Needs the samples and agent jars (built by the reactor
 * before this module); skipped with the reason when they are not there.
 */
class DemoIT {

    @TempDir
    Path dir;

    @Test
    void demoRunsTheSamplesAndPrintsTheDiffs() throws Exception {
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
        assertThat(r.out()).contains("okhttp-sync (A) against netty-sync-over-async (B)");
        // The export step: the Netty run's profiles as pprof and OTLP, and the lines that say how to read and send them.
        assertThat(r.out()).contains("per-request profiles of netty-sync-over-async for a fleet's backend: "
                + out.resolve("netty-sync-over-async.pb.gz").toAbsolutePath())
                .contains("go tool pprof -top -sample_index=queue_delay").contains("--format otlp --otlp")
                .contains("--data-binary @" + out.resolve("netty-sync-over-async.otlp.pb").toAbsolutePath());
        assertThat(out.resolve("netty-sync-over-async.pb.gz")).isNotEmptyFile();
        ExportProfilesServiceRequest otlp = ExportProfilesServiceRequest.parseFrom(
                Files.readAllBytes(out.resolve("netty-sync-over-async.otlp.pb")));
        List<String> strings = otlp.getDictionary().getStringTableList();
        assertThat(otlp.getResourceProfiles(0).getScopeProfiles(0).getProfilesList())
                .extracting(p -> strings.get(p.getSampleType().getTypeStrindex())).contains("queue_delay", "wake_latency");
        if (JdkHomes.newest(DemoCommand.VIRTUAL_THREADS_FEATURE).isPresent()) {
            assertThat(r.err()).contains("--callers virtual").doesNotContain("skipping");
            assertThat(r.out()).contains("okhttp-sync (A) against okhttp-sync-virtual (B)")
                    .contains("diff-okhttp-sync-virtual.txt)");
            for (String f : new String[] {"okhttp-sync-virtual.jfr", "okhttp-sync-virtual-report.json",
                    "diff-okhttp-sync-virtual.txt"}) {
                assertThat(out.resolve(f)).isNotEmptyFile();
            }
            // Its callers are virtual threads with the usual names.
            assertThat(Files.readString(out.resolve("okhttp-sync-virtual-report.json")))
                    .containsPattern("\"name\" ?: ?\"pipeline-caller-1\",\\s*\"virtual\" ?: ?true");
        } else {
            assertThat(r.err().lines().filter(l -> l.contains("skipping"))).containsExactly(
                    "demo: no JDK 21+ found under JAVA_HOME or /usr/lib/jvm; skipping the virtual-callers run");
            assertThat(out.resolve("okhttp-sync-virtual.jfr")).doesNotExist();
        }
    }
}
