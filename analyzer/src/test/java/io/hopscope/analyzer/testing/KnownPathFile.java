package io.hopscope.analyzer.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link KnownPathRecording} of {@code count} requests (monitor held 30 ms), written once per test run
 * and read by every CLI test class that asks for the same count ({@code @RegisterExtension} it as a
 * static field): the commands only read it, and each class writing its own cost a second or two.
 * The file is deleted when the run ends.
 */
public final class KnownPathFile implements BeforeAllCallback {

    private static final ExtensionContext.Namespace SHARED = ExtensionContext.Namespace.create(KnownPathFile.class);
    private static final long LOCK_HOLD_MILLIS = 30;

    private final int count;
    private Path file;

    public KnownPathFile(int count) {
        this.count = count;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        // The root store outlives every class and closes what it holds when the run ends.
        file = context.getRoot().getStore(SHARED)
                .getOrComputeIfAbsent(count, c -> Written.write(count), Written.class).file();
    }

    /** The recording; set before the class's {@code @BeforeAll} methods run. */
    public Path file() {
        if (file == null) {
            throw new IllegalStateException("KnownPathFile is read before its beforeAll: register it on a static field");
        }
        return file;
    }

    /** One written recording in its own folder; JUnit closes it (an AutoCloseable) with the root store. */
    private record Written(Path dir, Path file) implements AutoCloseable {

        static Written write(int count) {
            try {
                Path dir = Files.createTempDirectory("hopscope-known-path");
                Path file = dir.resolve("known-path-" + count + ".jfr");
                KnownPathRecording.write(file, count, LOCK_HOLD_MILLIS);
                return new Written(dir, file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Exception e) {
                throw new IllegalStateException("writing the known-path recording failed", e);
            }
        }

        @Override
        public void close() throws IOException {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
