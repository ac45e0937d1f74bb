package io.hopscope.analyzer.output;

import io.hopscope.analyzer.model.Diff;
import io.hopscope.analyzer.model.DiffRow;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Objects;

/** {@code diff --format text}: one block per request name, figure by figure, A, B and B/A. */
public final class TextDiff {

    private TextDiff() {
    }

    public static void write(Diff diff, PrintWriter out) {
        out.println("hopscope diff");
        out.println("  A: " + diff.a().file());
        if (!diff.windowA().isAll()) {
            out.println("     " + WindowText.line(diff.windowA()));
        }
        out.println("  B: " + diff.b().file());
        if (!diff.windowB().isAll()) {
            out.println("     " + WindowText.line(diff.windowB()));
        }
        String current = null;
        String fmt = "  %-34s %14s %14s %9s%n";
        for (DiffRow row : diff.rows()) {
            if (!Objects.equals(current, row.name())) {
                current = row.name();
                out.println();
                out.println(current.equals("*process*") ? "process:" : current + ":");
                out.printf(Locale.ROOT, fmt, "", "A", "B", "B/A");
            }
            out.printf(Locale.ROOT, fmt, row.metric(), value(row.a(), row.unit(), row.metric()),
                    value(row.b(), row.unit(), row.metric()), Units.ratio(row.ratio()));
        }
        if (!diff.onlyInA().isEmpty()) {
            out.println();
            out.println("only in A: " + String.join(", ", diff.onlyInA()));
        }
        if (!diff.onlyInB().isEmpty()) {
            out.println();
            out.println("only in B: " + String.join(", ", diff.onlyInB()));
        }
        out.flush();
    }

    private static String value(double v, String unit, String metric) {
        if (v < 0 && !"ns".equals(unit)) {
            return "-";
        }
        return switch (unit) {
            case "ns" -> Units.nanos(v);
            case "bytes" -> Units.bytes(v);
            case "req/s" -> String.format(Locale.ROOT, "%.1f/s", v);
            default -> metric.endsWith("share") ? Units.percent(v) : Units.number(v);
        };
    }
}
