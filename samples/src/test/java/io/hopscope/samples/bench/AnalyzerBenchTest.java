package io.hopscope.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnalyzerBenchTest {

    @TempDir
    Path dir;

    @Test
    void theHeapFigureIsTheLargestOccupancyAfterACollection() throws Exception {
        Path log = dir.resolve("report.gc");
        Files.writeString(log, """
                [0.010s][info][gc] Using G1
                [0.512s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 25M->3M(256M) 2.120ms
                [1.930s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 151M->95M(256M) 8.310ms
                [2.004s][info][gc] GC(2) Pause Young (Concurrent Start) (G1 Humongous Allocation) 240M->40960K(256M) 5.001ms
                [2.100s][info][gc] GC(3) Concurrent Mark Cycle 12.2ms
                """);

        // 95 MiB after GC(1), not 240 before GC(2): what was kept alive, not what garbage filled.
        assertThat(AnalyzerBench.liveHeapMb(log)).isEqualTo(95 * 1024 * 1024 / 1e6);
    }

    @Test
    void aRunWithoutACollectionHasNoHeapFigureToExceed() throws Exception {
        Path log = dir.resolve("empty.gc");
        Files.writeString(log, "[0.010s][info][gc] Using G1\n");

        assertThat(AnalyzerBench.liveHeapMb(log)).isZero();
    }
}
