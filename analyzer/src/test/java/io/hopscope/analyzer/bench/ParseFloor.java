package io.hopscope.analyzer.bench;

import java.nio.file.Path;
import java.util.Locale;
import jdk.jfr.consumer.EventStream;

/**
 * The floor under any analyzer built on {@code jdk.jfr.consumer}: one filtered pass over the agent's
 * request events, the way the analyzer opens the stream (unordered, reused event objects), doing
 * nothing with them ({@code bare}: what the JDK's parser alone costs) or reading the four values every
 * event needs ({@code fields}: request id, start, duration, thread). The benchmark prints both beside
 * {@code jfr summary}, which decodes no event at all (it reads each event's size and type and skips).
 *
 * <p>Usage: {@code ParseFloor RECORDING.jfr bare|fields}.
 */
public final class ParseFloor {

    private static final String[] REQUEST_EVENTS = {"hopscope.Request", "hopscope.Segment", "hopscope.Hop",
        "hopscope.Span", "hopscope.Wait"};

    private ParseFloor() {
    }

    public static void main(String[] args) throws Exception {
        boolean bare = args.length > 1 && args[1].equals("bare");
        long t0 = System.nanoTime();
        long[] n = new long[2];
        try (EventStream es = EventStream.openFile(Path.of(args[0]))) {
            es.setOrdered(false);
            es.setReuse(true);
            for (String type : REQUEST_EVENTS) {
                if (bare) {
                    es.onEvent(type, e -> n[0]++);
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
}
