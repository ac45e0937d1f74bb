package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KnownPathRecording;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code diff}: misuse, bad data, then two known-path recordings whose lock hold differs. */
class DiffCliTest {

    @TempDir
    static Path dir;
    static Path shortHold;
    static Path longHold;

    @BeforeAll
    static void record() throws Exception {
        shortHold = dir.resolve("short.jfr");
        longHold = dir.resolve("long.jfr");
        KnownPathRecording.write(shortHold, 2, 10);
        KnownPathRecording.write(longHold, 2, 60);
    }

    @Test
    void oneRecordingIsUsage() {
        Cli r = Cli.run("diff", shortHold.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required parameter").contains("Usage: hopscope diff");
    }

    @Test
    void badSecondFileNamesIt() {
        Path old = Paths.corpus().resolve("7u40.jfr");
        Cli r = Cli.run("diff", shortHold.toString(), old.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("hopscope: " + old + ": gzip-compressed").doesNotContain("\n");
    }

    @Test
    void textDiffShowsRatios() {
        Cli r = Cli.run("diff", shortHold.toString(), longHold.toString());
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains(KnownPathRecording.NAME + ":").contains("hops/request")
                .containsPattern("hops/request +3 +3 +1.00x").contains("process:").contains("peak threads");
    }

    @Test
    void jsonDiffRatiosFollowTheLockHold() throws Exception {
        Cli r = Cli.run("diff", shortHold.toString(), longHold.toString(), "--format", "json");
        assertThat(r.exitCode()).isZero();
        JsonNode root = new ObjectMapper().readTree(r.out());
        JsonNode lock = null;
        for (JsonNode row : root.get("rows")) {
            if (row.get("metric").asText().equals("lock/request")) {
                lock = row;
            }
        }
        assertThat(lock).isNotNull();
        assertThat(lock.get("b").asDouble()).isGreaterThanOrEqualTo(55e6);
        assertThat(lock.get("ratio").asDouble()).isGreaterThan(1.3).isEqualTo(lock.get("b").asDouble() / lock.get("a").asDouble());
        assertThat(root.get("onlyInA")).isEmpty();
    }
}
