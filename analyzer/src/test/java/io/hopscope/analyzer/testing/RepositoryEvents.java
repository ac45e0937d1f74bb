package io.hopscope.analyzer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Waits on what another JVM has recorded, not for a time: its JFR disk repository (given with
 * {@code -XX:FlightRecorderOptions=repository=DIR}), which JFR flushes about once a second while any
 * recording to disk runs, read as it grows ({@link EventStream#openRepository}). A test that needs
 * events recorded (a hundred requests, one flushed to a chunk) waits for them, however loaded the machine.
 */
public final class RepositoryEvents {

    private RepositoryEvents() {
    }

    /**
     * Waits until the repository under {@code root} has flushed {@code count} events named {@code name}
     * after this call; fails after {@code seconds} with {@code context} (say, the JVM's log).
     */
    public static void await(Path root, String name, int count, long seconds, Supplier<String> context) throws Exception {
        await(root, name, e -> true, count, seconds, context);
    }

    /** {@link #await(Path, String, int, long, Supplier)} counting only the events {@code which} accepts. */
    public static void await(Path root, String name, Predicate<RecordedEvent> which, int count, long seconds,
            Supplier<String> context) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        // The repository's chunks go into a folder of their own under root, made when a recording starts.
        Optional<Path> chunks = chunkFolder(root);
        while (chunks.isEmpty()) {
            assertThat(System.nanoTime()).as("a JFR chunk under %s within %d s: %s", root, seconds, context.get())
                    .isLessThan(deadline);
            Thread.sleep(50);
            chunks = chunkFolder(root);
        }
        CountDownLatch seen = new CountDownLatch(count);
        try (EventStream stream = EventStream.openRepository(chunks.get())) {
            stream.onEvent(name, e -> {
                if (which.test(e)) {
                    seen.countDown();
                }
            });
            stream.startAsync();
            boolean done = seen.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertThat(done).as("%d %s events flushed to %s within %d s (%d missing): %s", count, name, chunks.get(),
                    seconds, seen.getCount(), context.get()).isTrue();
        }
    }

    /** A log file's text as a failure's context, read when the failure asks for it. */
    public static Supplier<String> log(Path file) {
        return () -> {
            try {
                return Files.exists(file) ? Files.readString(file) : "(no " + file + ")";
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    private static Optional<Path> chunkFolder(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".jfr")).map(Path::getParent).findFirst();
        }
    }
}
