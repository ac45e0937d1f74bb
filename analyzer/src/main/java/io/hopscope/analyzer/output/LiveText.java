package io.hopscope.analyzer.output;

import io.hopscope.analyzer.model.LiveInterval;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One interval of {@code hopscope live} as text: a line for the process (the interval's start, in
 * local time), then one indented line per request name, like a once-a-second monitor. "-" where no
 * request of the name finished. A name whose server requests finished in the interval gets their
 * server queue, mean and max, before the queue delay (which is the application's handoffs).
 */
public final class LiveText {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    private static final DateTimeFormatter TENTHS = DateTimeFormatter.ofPattern("HH:mm:ss.S").withZone(ZoneId.systemDefault());

    private LiveText() {
    }

    public static List<String> lines(LiveInterval interval) {
        List<String> lines = new ArrayList<>();
        Instant start = Instant.ofEpochMilli(interval.epochMillis());
        lines.add((interval.epochMillis() % 1000 == 0 ? TIME.format(start) : TENTHS.format(start)) + "  threads " + interval.liveThreads()
                + "  in flight " + interval.inFlight() + "  gc pause " + Units.nanos(interval.gcPauseNanos()));
        for (LiveInterval.Name n : interval.names()) {
            StringBuilder hops = new StringBuilder(n.hopsPerRequest() == null ? "-" : fixed(n.hopsPerRequest()));
            if (!n.hopsPerRequestByKind().isEmpty()) {
                List<String> kinds = new ArrayList<>();
                for (Map.Entry<String, Double> k : n.hopsPerRequestByKind().entrySet()) {
                    kinds.add(k.getKey() + " " + fixed(k.getValue()));
                }
                hops.append(" (").append(String.join(", ", kinds)).append(')');
            }
            lines.add("  " + n.name() + "  started " + n.started() + "  finished " + n.finished()
                    + (n.finishedBegunBefore() > 0 ? " (+" + n.finishedBegunBefore() + " begun before watching)" : "")
                    + "  in flight " + n.inFlight()
                    + "  mean " + nanos(n.meanNanos()) + "  p99 " + nanos(n.p99Nanos())
                    + "  hops/req " + hops
                    + (n.serverQueueNanos() == null ? "" : "  server queue " + Units.nanos(n.serverQueueNanos())
                            + " (max " + Units.nanos(n.serverQueueMaxNanos()) + ")")
                    + "  queue " + nanos(n.queueDelayNanos()) + "  wake " + nanos(n.wakeLatencyNanos())
                    + "  alloc/req " + (n.allocatedBytesPerRequest() == null ? "-" : Units.bytes(n.allocatedBytesPerRequest()))
                    + "  lock/req " + nanos(n.lockNanosPerRequest()));
        }
        return lines;
    }

    private static String nanos(Long v) {
        return v == null ? "-" : Units.nanos(v);
    }

    private static String fixed(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
