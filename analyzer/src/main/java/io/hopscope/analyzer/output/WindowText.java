package io.hopscope.analyzer.output;

import io.hopscope.analyzer.model.RequestWindow;

/** The line every output gives for {@code --from}/{@code --to}: the window applied, in offsets and UTC, and what it left out. */
public final class WindowText {

    private WindowText() {
    }

    /** "window: requests that started from +20.00 s (...) to +40.00 s (...), asked as --from 20s --to 40s; left out 3 before, 4 after". */
    public static String line(RequestWindow w) {
        StringBuilder s = new StringBuilder("window: requests that started");
        if (w.fromEpochNanos() != Long.MIN_VALUE) {
            s.append(" from ").append(bound(w, w.fromEpochNanos()));
        }
        if (w.toEpochNanos() != Long.MAX_VALUE) {
            s.append(" before ").append(bound(w, w.toEpochNanos()));
        }
        return s.append(" (").append(w.asked()).append("); left out ").append(w.leftOutBefore())
                .append(" that started before it, ").append(w.leftOutAfter()).append(" after").toString();
    }

    private static String bound(RequestWindow w, long epochNanos) {
        long offset = epochNanos - w.originEpochNanos();
        return (offset < 0 ? "-" : "+") + Units.nanos(Math.abs(offset)) + " = " + Units.epoch(epochNanos);
    }
}
