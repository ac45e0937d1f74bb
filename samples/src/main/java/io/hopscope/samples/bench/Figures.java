package io.hopscope.samples.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** The bench's arithmetic: medians and spreads over rounds, ratios to the baseline. */
final class Figures {

    private Figures() {
    }

    /** The median (the mean of the middle two for an even count), or null for no values. */
    static Double median(List<Double> values) {
        if (values.isEmpty()) {
            return null;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** a / b, or null when either is unknown or b is not positive (a window with no requests). */
    static Double ratio(Double a, Double b) {
        return a == null || b == null || b <= 0 || a < 0 ? null : a / b;
    }

    /** a - b, or null when either is unknown (the sample prints -1 for an unknown CPU time). */
    static Double difference(Double a, Double b) {
        return a == null || b == null || a < 0 || b < 0 ? null : a - b;
    }

    /** Each figure in {@code format}, "-" where unknown, comma-separated: every round of a line. */
    static String list(List<Double> values, String format) {
        List<String> cells = new ArrayList<>();
        values.forEach(v -> cells.add(fmt(v, format)));
        return String.join(", ", cells);
    }

    /** {@code v} in {@code format} (root locale), or "-" when unknown. */
    static String fmt(Double v, String format) {
        return v == null || v.isNaN() ? "-" : String.format(Locale.ROOT, format, v);
    }

    /** The median and the range of values over rounds. */
    record Spread(Double median, Double min, Double max, int count) {

        static Spread of(List<Double> values) {
            List<Double> known = new ArrayList<>();
            for (Double v : values) {
                if (v != null) {
                    known.add(v);
                }
            }
            return new Spread(Figures.median(known), known.isEmpty() ? null : Collections.min(known),
                    known.isEmpty() ? null : Collections.max(known), known.size());
        }
    }
}
