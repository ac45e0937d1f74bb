package io.hopscope.analyzer.output;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Human formatting of nanoseconds, bytes and epoch times for the text outputs (fixed locale: stable output). */
public final class Units {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    private Units() {
    }

    public static String nanos(double nanos) {
        double abs = Math.abs(nanos);
        if (abs >= 1e9) {
            return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
        }
        if (abs >= 1e6) {
            return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
        }
        if (abs >= 1e3) {
            return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f ns", nanos);
    }

    static String bytes(double bytes) {
        double abs = Math.abs(bytes);
        if (abs >= 1L << 30) {
            return String.format(Locale.ROOT, "%.2f GiB", bytes / (1L << 30));
        }
        if (abs >= 1L << 20) {
            return String.format(Locale.ROOT, "%.2f MiB", bytes / (1L << 20));
        }
        if (abs >= 1L << 10) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / (1L << 10));
        }
        return String.format(Locale.ROOT, "%.0f B", bytes);
    }

    static String epoch(long epochNanos) {
        return TIME.format(Instant.ofEpochSecond(0, epochNanos)) + " UTC";
    }

    static String number(double v) {
        return String.format(Locale.ROOT, v == Math.rint(v) && Math.abs(v) < 1e15 ? "%.0f" : "%.2f", v);
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f%%", share * 100);
    }

    static String ratio(double r) {
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.2fx", r);
    }

    static String fit(String s, int width) {
        String v = s == null ? "?" : s;
        return v.length() <= width ? v : v.substring(0, width - 1) + "~";
    }
}
