package io.hopscope.analyzer.bench;

import java.nio.file.Path;
import java.util.Locale;
import jdk.jfr.consumer.EventStream;

/**
 * The floor under any analyzer built on {@code jdk.jfr.consumer}: one filtered pass over the agent's
 * request events reading the four values every event needs (request id, start, duration, thread),
 * nothing else. The benchmark prints it beside {@code jfr summary}, which decodes no event at all.
 */
public final class ParseFloor {

    private ParseFloor() {
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        long[] n = new long[2];
        try (EventStream es = EventStream.openFile(Path.of(args[0]))) {
            es.setOrdered(false);
            es.setReuse(true);
            for (String type : new String[] {"hopscope.Request", "hopscope.Segment", "hopscope.Hop", "hopscope.Span",
                    "hopscope.Wait"}) {
                es.onEvent(type, e -> {
                    n[0]++;
                    n[1] += e.getLong("requestId") + e.getStartTime().getNano() + e.getDuration().getNano()
                            + e.getThread().getJavaThreadId();
                });
            }
            es.start();
        }
        System.out.printf(Locale.ROOT, "%.2f s for %d events (checksum %d)%n", (System.nanoTime() - t0) / 1e9, n[0], n[1]);
    }
}
