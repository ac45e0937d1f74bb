package io.hopscope.analyzer.output;

import io.hopscope.analyzer.model.RequestsKept;

/** The line that says which requests an output holds ({@code --top}, {@code --sample}) and how many it left out. */
public final class KeptText {

    private KeptText() {
    }

    /** "requests: kept 480 of 80000, the worst 100 by duration and every 64th of the rest by id (380); left out 79520". */
    public static String line(RequestsKept k) {
        if (k.all()) {
            return "requests: kept every one";
        }
        long held = k.worst() + k.sampled();
        return "requests: kept " + held + " of " + (held + k.leftOut()) + ", the worst " + k.worst() + " by " + k.sortedBy()
                + (k.sampleEvery() > 0 ? " and " + every(k.sampleEvery()) + " of the rest by id (" + k.sampled() + ")" : "")
                + "; left out " + k.leftOut();
    }

    static String every(long k) {
        if (k == 1) {
            return "every one";
        }
        long lastTwo = k % 100;
        String suffix = lastTwo >= 11 && lastTwo <= 13 ? "th" : switch ((int) (k % 10)) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return "every " + k + suffix;
    }
}
