package io.hopscope.analyzer.testing;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Recordings made once for the whole test run and shared by the test classes that only read them: a class
 * {@code @ExtendWith(SharedRecordings.Extension.class)} takes this as a {@code @BeforeAll} parameter, or
 * declares a static field {@link KnownPath}; it writes what it derives into its own folder. They live in
 * one temporary folder, deleted at the run's end.
 */
public final class SharedRecordings implements AutoCloseable {

    private final Path dir;
    private KernelRecording kernel;
    private final Map<Integer, Path> knownPaths = new HashMap<>();

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

    /** {@link KnownPathRecording}'s recording of {@code requests} requests, each holding the lock 30 ms. */
    public synchronized Path knownPath(int requests) throws Exception {
        Path file = knownPaths.get(requests);
        if (file == null) {
            file = dir.resolve("known-path-" + requests + ".jfr");
            KnownPathRecording.write(file, requests, 30);
            knownPaths.put(requests, file);
        }
        return file;
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

    /** A static {@code Path} field set to {@link #knownPath}'s recording before the class's tests. */
    @Target(ElementType.FIELD)
    @Retention(RetentionPolicy.RUNTIME)
    @ExtendWith(Extension.class)
    public @interface KnownPath {
        int requests();
    }

    /**
     * Resolves a {@link SharedRecordings} parameter to the run's one (the root context's, closed at its end),
     * and sets the class's {@link KnownPath} fields from it.
     */
    public static final class Extension implements ParameterResolver, BeforeAllCallback {

        @Override
        public void beforeAll(ExtensionContext context) throws Exception {
            for (Class<?> c = context.getRequiredTestClass(); c != null; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    KnownPath known = f.getAnnotation(KnownPath.class);
                    if (known == null) {
                        continue;
                    }
                    if (!Modifier.isStatic(f.getModifiers())) {
                        throw new ExtensionConfigurationException(f + ": @KnownPath is set before all tests, on a static field");
                    }
                    f.setAccessible(true);
                    f.set(null, shared(context).knownPath(known.requests()));
                }
            }
        }

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
