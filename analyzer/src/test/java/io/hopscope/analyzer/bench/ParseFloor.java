package io.hopscope.analyzer.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import jdk.jfr.consumer.EventStream;

/**
 * The floor under any analyzer built on {@code jdk.jfr.consumer}: one filtered pass over the agent's
 * request events, the way the analyzer opens the stream (unordered, reused event objects), doing
 * nothing with them ({@code bare}: what the JDK's parser alone costs) or reading the four values every
 * event needs ({@code fields}: request id, start, duration, thread). The benchmark prints both beside
 * {@code jfr summary}, which decodes no event at all (it reads each event's size and type and skips).
 *
 * <p>{@code index} reads the same values without the lookup by name that is the only way
 * {@code jdk.jfr.consumer} offers: by position, out of the JDK's private array of parsed values
 * (needs {@code --add-opens jdk.jfr/jdk.jfr.consumer=ALL-UNNAMED}). Not something the analyzer does:
 * it measures what the public API's lookup by name costs.
 *
 * <p>{@code parallel} is {@code bare} over the recording's chunks at once, as many at a time as
 * there are CPUs: each chunk is copied to a file of its own first (the API opens whole files only),
 * and that copy is timed with the rest. It asks whether a second core could bring the parse under
 * the target; it is not something the analyzer does.
 *
 * <p>Usage: {@code ParseFloor RECORDING.jfr bare|fields|index|parallel}.
 */
public final class ParseFloor {

    private static final String[] REQUEST_EVENTS = {"hopscope.Request", "hopscope.Segment", "hopscope.Hop",
        "hopscope.Span", "hopscope.Wait"};

    private ParseFloor() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 1 ? args[1] : "fields";
        // RecordedObject.objects holds an event's values after its start time and (when it has one)
        // its duration, in the order of getFields(); JDK 17 to 25 alike.
        java.lang.invoke.VarHandle values = mode.equals("index")
                ? java.lang.invoke.MethodHandles.privateLookupIn(jdk.jfr.consumer.RecordedObject.class,
                        java.lang.invoke.MethodHandles.lookup()).findVarHandle(jdk.jfr.consumer.RecordedObject.class,
                        "objects", Object[].class)
                : null;
        java.util.Map<jdk.jfr.EventType, int[]> positions = new java.util.IdentityHashMap<>();
        long t0 = System.nanoTime();
        long[] n = new long[2];
        if (mode.equals("parallel")) {
            n[0] = parallelBare(Path.of(args[0]));
            System.out.printf(Locale.ROOT, "%.2f s for %d events (%d threads)%n", (System.nanoTime() - t0) / 1e9,
                    n[0], Runtime.getRuntime().availableProcessors());
            return;
        }
        try (EventStream es = EventStream.openFile(Path.of(args[0]))) {
            es.setOrdered(false);
            es.setReuse(true);
            for (String type : REQUEST_EVENTS) {
                if (mode.equals("bare")) {
                    es.onEvent(type, e -> n[0]++);
                } else if (mode.equals("index")) {
                    es.onEvent(type, e -> {
                        int[] at = positions.computeIfAbsent(e.getEventType(), t -> {
                            List<String> names = t.getFields().stream().map(jdk.jfr.ValueDescriptor::getName).toList();
                            int skipped = names.contains("duration") ? 2 : 1;
                            return new int[] {names.indexOf("requestId") - skipped, names.indexOf("eventThread") - skipped};
                        });
                        Object[] v = (Object[]) values.get(e);
                        n[0]++;
                        n[1] += (Long) v[at[0]] + e.getStartTime().getNano() + e.getDuration().getNano()
                                + ((jdk.jfr.consumer.RecordedThread) v[at[1]]).getJavaThreadId();
                    });
                } else {
                    es.onEvent(type, e -> {
                        n[0]++;
                        n[1] += e.getLong("requestId") + e.getStartTime().getNano() + e.getDuration().getNano()
                                + e.getThread().getJavaThreadId();
                    });
                }
            }
            es.start();
        }
        System.out.printf(Locale.ROOT, "%.2f s for %d events (checksum %d)%n", (System.nanoTime() - t0) / 1e9, n[0], n[1]);
    }

    /** The request events of every chunk, counted by one bare pass per chunk, chunks in parallel. */
    private static long parallelBare(Path file) throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory("parse-floor-");
        java.util.concurrent.ExecutorService pool =
                java.util.concurrent.Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        try {
            List<Path> chunks = new java.util.ArrayList<>();
            try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(file)) {
                java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(16);
                long position = 0;
                while (position + 16 <= in.size()) {
                    header.clear();
                    in.read(header, position);
                    // A chunk starts with "FLR\0", two version shorts and its size in bytes.
                    if (header.getInt(0) != 0x464c5200 || header.getLong(8) <= 16) {
                        throw new IllegalStateException("no JFR chunk at byte " + position + " of " + file);
                    }
                    Path chunk = dir.resolve("chunk-" + chunks.size() + ".jfr");
                    try (java.nio.channels.FileChannel out = java.nio.channels.FileChannel.open(chunk,
                            java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
                        in.transferTo(position, header.getLong(8), out);
                    }
                    chunks.add(chunk);
                    position += header.getLong(8);
                }
            }
            List<java.util.concurrent.Future<Long>> counts = new java.util.ArrayList<>();
            for (Path chunk : chunks) {
                counts.add(pool.submit(() -> {
                    long[] count = {0};
                    try (EventStream es = EventStream.openFile(chunk)) {
                        es.setOrdered(false);
                        es.setReuse(true);
                        for (String type : REQUEST_EVENTS) {
                            es.onEvent(type, e -> count[0]++);
                        }
                        es.start();
                    }
                    return count[0];
                }));
            }
            long total = 0;
            for (java.util.concurrent.Future<Long> count : counts) {
                total += count.get();
            }
            return total;
        } finally {
            pool.shutdown();
            try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
                for (Path f : files.toList()) {
                    java.nio.file.Files.delete(f);
                }
            }
            java.nio.file.Files.delete(dir);
        }
    }
}
