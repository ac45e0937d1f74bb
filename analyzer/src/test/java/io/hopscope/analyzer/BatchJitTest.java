package io.hopscope.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which command lines run without C2: the batch commands over small inputs, export among them. */
class BatchJitTest {

    @TempDir
    Path dir;

    @Test
    void batchCommandsOverSmallFilesRunWithoutC2AndTheRestKeepIt() throws Exception {
        Path small = Files.writeString(dir.resolve("small.jfr"), "x");
        for (String command : new String[] {"report", "diff", "flame", "trace", "export"}) {
            assertThat(BatchJit.isSmallBatch(new String[] {command, small.toString(), "--format", "otlp"})).as(command).isTrue();
        }
        for (String command : new String[] {"live", "record", "demo", "attach"}) {
            assertThat(BatchJit.isSmallBatch(new String[] {command, small.toString()})).as(command).isFalse();
        }
        assertThat(BatchJit.isSmallBatch(new String[0])).isFalse();
        // A sparse file just over the limit: its size counts, not what is on disk.
        Path big = dir.resolve("big.jfr");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(BatchJit.MAX_INPUT_BYTES + 1);
        }
        assertThat(BatchJit.isSmallBatch(new String[] {"export", big.toString(), "--format", "pprof"})).isFalse();
    }
}
