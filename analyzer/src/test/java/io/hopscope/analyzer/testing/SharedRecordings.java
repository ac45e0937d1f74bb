package io.hopscope.analyzer.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Recordings made once for the whole test run and shared by the test classes that only read them: a class
 * {@code @ExtendWith(SharedRecordings.Extension.class)} takes this as a {@code @BeforeAll} parameter, and
 * writes what it derives into its own folder. They live in one temporary folder, deleted at the run's end.
 */
public final class SharedRecordings implements AutoCloseable {

    private final Path dir;
    private KernelRecording kernel;

    private SharedRecordings() {
        try {
            dir = Files.createTempDirectory("hopscope-shared-recordings");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link KernelFixture}'s recording (with ClockSync) and its offwake events. */
    public synchronized KernelRecording kernel() throws Exception {
        if (kernel == null) {
            Path jfr = dir.resolve("kj.jfr");
            KernelFixture fixture = KernelFixture.record(jfr, true);
            kernel = new KernelRecording(fixture, jfr, fixture.writeEvents(dir.resolve("kj.jsonl")));
        }
        return kernel;
    }

    @Override
    public void close() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** {@link KernelFixture} recorded, with its offwake events written beside. */
    public record KernelRecording(KernelFixture fixture, Path jfr, Path events) {
    }

    /** Resolves a {@link SharedRecordings} parameter to the run's one (the root context's, closed at its end). */
    public static final class Extension implements ParameterResolver {

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == SharedRecordings.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return shared(context);
        }

        private static SharedRecordings shared(ExtensionContext context) {
            return context.getRoot().getStore(ExtensionContext.Namespace.create(SharedRecordings.class))
                    .getOrComputeIfAbsent(SharedRecordings.class, k -> new SharedRecordings(), SharedRecordings.class);
        }
    }
}
