package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.RepositoryEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The truncated recording users really meet: a JVM killed (SIGKILL) mid-recording leaves its
 * repository chunk unfinished. {@code report} must read what was flushed, warn, and not hang
 * (the JDK's EventStream would wait for the rest of such a chunk forever).
 */
class KilledJvmRecordingIT {

    @TempDir
    Path dir;

    @Test
    void reportReadsTheFlushedPartOfAKilledJvmsChunk() throws Exception {
        Path repo = dir.resolve("repo");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-XX:StartFlightRecording",
                "-XX:FlightRecorderOptions=repository=" + repo,
                Paths.moduleDir().resolve("src/test/resources/java25/Endless.java").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("endless.log").toFile()).start();
        try {
            // JFR flushes a disk recording to its chunk about once a second: kill it once a request is there.
            RepositoryEvents.await(repo, "hopscope.Request", 1, 120, RepositoryEvents.log(dir.resolve("endless.log")));
        } finally {
            p.destroyForcibly(); // SIGKILL: no chunk is finished
            p.waitFor(10, TimeUnit.SECONDS);
        }
        Path chunk;
        try (Stream<Path> files = Files.walk(repo)) {
            List<Path> jfrs = files.filter(f -> f.toString().endsWith(".jfr")).sorted().toList();
            assertThat(jfrs).isNotEmpty();
            chunk = jfrs.get(jfrs.size() - 1);
        }
        Cli r = Cli.run("report", chunk.toString(), "--top", "0");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err().strip()).isEqualTo("warning: " + chunk + ": unfinished recording (its jvm was killed, "
                + "or is still recording): read what was flushed to the file, later events are lost");
        assertThat(r.out()).containsPattern("GET 127.0.0.1/endless +[1-9][0-9]*");
    }
}
