package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.bench.RecordingGenerator;
import io.hopscope.analyzer.testing.FlightRecorderLock;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 23: {@code report}'s heap does not grow with the file. Two generated recordings, one four
 * times the other (RecordingGenerator: 10 contract events a request, JDK lock, park and allocation
 * events), are each reported by a child JVM under {@code -Xmx64m}; both must complete, so the larger
 * one does not need more heap (on 2026-11-25: 15 MB and 61 MB files, 60,000 and 240,000 requests,
 * both within it). The multi-GB run is {@code analyzer/bench/report-heap.sh} (docs/performance.md).
 */
@ResourceLock(FlightRecorderLock.NAME)
class HeapBoundIT {

    static final String HEAP = "-Xmx64m";

    @TempDir
    Path dir;

    @Test
    void theLargerRecordingNeedsNoMoreHeap() throws Exception {
        Path small = dir.resolve("small.jfr");
        Path large = dir.resolve("large.jfr");
        RecordingGenerator.main(new String[] {"60000", small.toString()});
        RecordingGenerator.main(new String[] {"240000", large.toString()});
        assertThat(Files.size(large)).isGreaterThan(3 * Files.size(small));
        for (Path file : List.of(small, large)) {
            Path err = dir.resolve(file.getFileName() + ".err");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                    "-XX:+HeapDumpOnOutOfMemoryError", "-XX:HeapDumpPath=" + dir.resolve("oom.hprof"),
                    "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                    "io.hopscope.analyzer.Hopscope", "report", file.toString(), "--stats")
                    .redirectOutput(dir.resolve(file.getFileName() + ".out").toFile())
                    .redirectError(err.toFile())
                    .start();
            assertThat(p.waitFor(10, TimeUnit.MINUTES)).as(file + " finished").isTrue();
            String stderr = Files.readString(err);
            System.out.println(file.getFileName() + " (" + (Files.size(file) >> 20) + " MB) under " + HEAP + ": "
                    + stderr.lines().filter(l -> l.startsWith("stats:")).findFirst().orElse(stderr));
            assertThat(p.exitValue()).as(file + ": " + stderr).isZero();
            assertThat(stderr).doesNotContain("OutOfMemoryError").contains("stats:");
            assertThat(Files.readString(dir.resolve(file.getFileName() + ".out"))).contains("GET 127.0.0.1/blob");
        }
        assertThat(new File(dir.toFile(), "oom.hprof")).doesNotExist();
    }
}
