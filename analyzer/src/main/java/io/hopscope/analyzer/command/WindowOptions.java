package io.hopscope.analyzer.command;

import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.read.ChunkScan;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * {@code --from} and {@code --to}, the window of request starts a command reads ({@code @Mixin} it):
 * each bound an offset from the recording's start or a UTC wall-clock time, parsed and checked here
 * once for every command, against the recording's start and end as its chunk headers give them
 * ({@code jfr summary}'s Start), before any event is read.
 */
public final class WindowOptions {

    private static final Pattern OFFSET = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|m|h)");
    private static final Pattern TIME_OF_DAY = Pattern.compile("\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?");
    private static final String FORMS = "an offset from the recording's start (20s, 500ms, 1.5m, 1h) or a UTC time"
            + " (2026-11-25T01:24:58Z, 2026-11-25T01:24:58.447Z, 01:24:58)";
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS 'UTC'")
            .withZone(ZoneOffset.UTC);

    @Option(names = "--from", paramLabel = "TIME",
            description = "Only requests that started at or after TIME: an offset from the recording's start"
                    + " (20s, 500ms, 1.5m, 1h) or a UTC time (2026-11-25T01:24:58Z, ...58.447Z, or 01:24:58 on the"
                    + " recording's day).")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "Only requests that started before TIME (as --from).")
    String to;

    /** One bound as given: an offset from the recording's start, an instant, or a time of day in UTC. */
    private record Bound(String option, String text, long offsetNanos, long epochNanos, long dayNanos) {

        static final long NONE = Long.MIN_VALUE;

        static Bound parse(String option, String text) throws CliProblem {
            String t = text.strip();
            Matcher offset = OFFSET.matcher(t.toLowerCase(Locale.ROOT));
            try {
                if (offset.matches()) {
                    BigDecimal nanos = new BigDecimal(offset.group(1)).multiply(BigDecimal.valueOf(unitNanos(offset.group(2))));
                    return new Bound(option, text, nanos.longValueExact(), NONE, NONE);
                }
                if (TIME_OF_DAY.matcher(t).matches()) {
                    return new Bound(option, text, NONE, NONE, LocalTime.parse(t).toNanoOfDay());
                }
                if (t.contains("T")) {
                    Instant instant = t.endsWith("Z") || t.endsWith("z") ? Instant.parse(t.toUpperCase(Locale.ROOT))
                            : OffsetDateTime.parse(t).toInstant();
                    return new Bound(option, text, NONE, WindowOptions.epochNanos(instant), NONE);
                }
            } catch (DateTimeParseException | ArithmeticException e) {
                // falls through to the one line below
            }
            throw new CliProblem(option + " '" + text + "': expected " + FORMS);
        }

        /** Epoch nanoseconds of this bound in a recording that spans [start, end]. */
        long resolve(long startEpochNanos, long endEpochNanos) {
            if (offsetNanos != NONE) {
                return startEpochNanos + offsetNanos;
            }
            if (epochNanos != NONE) {
                return epochNanos;
            }
            // A time of day is on the day the recording started, or the next when the recording runs past
            // midnight and the time is before its start.
            long day = TimeUnit.DAYS.toNanos(1);
            long t = Math.floorDiv(startEpochNanos, day) * day + dayNanos;
            return t < startEpochNanos && t + day <= endEpochNanos ? t + day : t;
        }

        String describe() {
            return option + " " + text;
        }
    }

    /** Whether either bound was given. */
    public boolean isSet() {
        return from != null || to != null;
    }

    /**
     * Refuses the window beside an eBPF join, which reads every interval of the process yet:
     * {@code join} names the options that ask for it.
     */
    void refuseBesideEbpfJoin(String join) throws CliProblem {
        if (isSet()) {
            throw new CliProblem("--from/--to do not apply to the eBPF join (" + join + ") yet: give one or the other");
        }
    }

    /**
     * The window over {@code recording}, whose chunk headers the command scanned ({@code scan}, the
     * same it hands the analyzer), or {@link RequestWindow#ALL} without either option. A bad value,
     * {@code --from} not before {@code --to}, or a window wholly outside the recording is one line
     * ({@link CliProblem}).
     */
    public RequestWindow resolve(Path recording, ChunkScan.Result scan) throws CliProblem {
        if (!isSet()) {
            return RequestWindow.ALL;
        }
        Bound fromBound = from == null ? null : Bound.parse("--from", from);
        Bound toBound = to == null ? null : Bound.parse("--to", to);
        long start = scan.startEpochNanos();
        long end = Math.max(start, scan.endEpochNanos());
        long fromNanos = fromBound == null ? Long.MIN_VALUE : fromBound.resolve(start, end);
        long toNanos = toBound == null ? Long.MAX_VALUE : toBound.resolve(start, end);
        String span = "the recording runs from " + UTC.format(instant(start)) + " to " + UTC.format(instant(end));
        if (fromBound != null && toBound != null && fromNanos >= toNanos) {
            throw new CliProblem(fromBound.describe() + " (" + UTC.format(instant(fromNanos)) + ") is not before "
                    + toBound.describe() + " (" + UTC.format(instant(toNanos)) + ")");
        }
        if (fromBound != null && end > start && fromNanos > end) {
            throw new CliProblem(recording + ": " + fromBound.describe() + " (" + UTC.format(instant(fromNanos))
                    + ") is after the recording's end; " + span);
        }
        if (toBound != null && toNanos <= start) {
            throw new CliProblem(recording + ": " + toBound.describe() + " (" + UTC.format(instant(toNanos))
                    + ") is not after the recording's start; " + span);
        }
        String asked = (fromBound == null ? "" : fromBound.describe())
                + (fromBound != null && toBound != null ? " " : "") + (toBound == null ? "" : toBound.describe());
        return new RequestWindow(asked, start, fromNanos, toNanos, 0, 0);
    }

    private static long unitNanos(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L; // h
        };
    }

    private static long epochNanos(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
    }

    private static Instant instant(long epochNanos) {
        return Instant.ofEpochSecond(0, epochNanos);
    }
}
