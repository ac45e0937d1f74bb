package io.hopscope.samples.bench;

import java.util.Locale;

/**
 * One of issue #22's decided targets on one row: the measured value, the limit, and a status
 * computed from both ("met", "not met by X") or why it could not be measured.
 */
record TargetCheck(String target, String row, Double value, boolean atMost, double limit, String unit, String notMeasured,
                   String notMetWithoutFigure) {

    static TargetCheck atMost(String target, String row, Double value, double limit, String unit, String whyUnknown) {
        return new TargetCheck(target, row, value, true, limit, unit, value == null ? whyUnknown : null, null);
    }

    static TargetCheck atLeast(String target, String row, Double value, double limit, String unit, String whyUnknown) {
        return new TargetCheck(target, row, value, false, limit, unit, value == null ? whyUnknown : null, null);
    }

    /** Missed without a figure to say by how much (the report ran out of its heap limit). */
    static TargetCheck missed(String target, String row, double limit, String unit, String why) {
        return new TargetCheck(target, row, null, true, limit, unit, null, why);
    }

    boolean met() {
        return notMeasured == null && notMetWithoutFigure == null && (atMost ? value <= limit : value >= limit);
    }

    /** "met", "not met by 0.021", "not met: why", "not measured: why". */
    String status() {
        if (notMetWithoutFigure != null) {
            return "not met: " + notMetWithoutFigure;
        }
        if (notMeasured != null) {
            return "not measured: " + notMeasured;
        }
        return met() ? "met" : "not met by " + format(Math.abs(value - limit)) + unit;
    }

    /** "<= 1.500x"; "-" when the limit is itself a figure that was not measured (OTel's CPU). */
    String limitText() {
        return Double.isNaN(limit) ? "-" :  (atMost ? "<= " : ">= ") + format(limit) + unit;
    }

    String valueText() {
        return value == null ? "-" : format(value) + unit;
    }

    /** Three significant decimals for ratios, one for microseconds and larger figures. */
    static String format(double v) {
        return String.format(Locale.ROOT, Math.abs(v) < 10 ? "%.3f" : "%.1f", v);
    }
}
