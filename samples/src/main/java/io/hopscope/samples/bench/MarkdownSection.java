package io.hopscope.samples.bench;

/**
 * The bench's section of a markdown file, between {@code <!-- bench:begin -->} and
 * {@code <!-- bench:end -->} (or another name's markers, e.g. the README's {@code bench-summary}):
 * replaced in place, the rest of the file kept as it was.
 */
final class MarkdownSection {

    static final String NAME = "bench";
    static final String SUMMARY_NAME = "bench-summary";
    static final String TRACER_NAME = "bench-tracer";
    static final String ALLOCATION_NAME = "bench-allocation";
    static final String SOAK_NAME = "bench-soak";
    static final String BEGIN = begin(NAME);
    static final String END = end(NAME);

    private MarkdownSection() {
    }

    /**
     * The file's text with its section's body replaced by {@code body}; a file without markers gets
     * the section at its end, a missing (null) or empty file is the section alone.
     *
     * @throws IllegalArgumentException when the markers are unpaired or out of order (what to do is the user's call)
     */
    static String replace(String existing, String body) {
        return replace(existing, body, NAME);
    }

    /** {@link #replace(String, String)} between the markers of {@code name}. */
    static String replace(String existing, String body, String name) {
        String open = begin(name);
        String close = end(name);
        String section = open + "\n" + (body.endsWith("\n") ? body : body + "\n") + close;
        if (existing == null || existing.isBlank()) {
            return section + "\n";
        }
        int begin = existing.indexOf(open);
        int end = existing.indexOf(close);
        if (begin < 0 && end < 0) {
            return existing + (existing.endsWith("\n") ? "\n" : "\n\n") + section + "\n";
        }
        if (begin < 0 || end < 0 || end < begin || existing.indexOf(open, begin + 1) >= 0
                || existing.indexOf(close, end + 1) >= 0) {
            throw new IllegalArgumentException("needs one " + open + " followed by one " + close);
        }
        return existing.substring(0, begin) + section + existing.substring(end + close.length());
    }

    static String begin(String name) {
        return "<!-- " + name + ":begin -->";
    }

    static String end(String name) {
        return "<!-- " + name + ":end -->";
    }
}
