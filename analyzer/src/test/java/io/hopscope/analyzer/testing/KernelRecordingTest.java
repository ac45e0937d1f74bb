package io.hopscope.analyzer.testing;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The setup of the tests that read {@link KernelFixture}'s recording and offwake events: both made once for
 * the run ({@link SharedRecordings}) and set here before each test class, with a folder of the class's own
 * ({@code dir}) for what it derives. The fields are static, as {@code @BeforeAll} needs: test classes run one
 * at a time (no parallel execution is configured), each after this setup of its own.
 */
@ExtendWith(SharedRecordings.Extension.class)
public abstract class KernelRecordingTest {

    @TempDir
    protected static Path dir;
    protected static Path jfr;
    protected static Path events;
    protected static KernelFixture fixture;

    @BeforeAll
    static void shareKernelRecording(SharedRecordings shared) throws Exception {
        SharedRecordings.KernelRecording kernel = shared.kernel();
        jfr = kernel.jfr();
        events = kernel.events();
        fixture = kernel.fixture();
    }
}
