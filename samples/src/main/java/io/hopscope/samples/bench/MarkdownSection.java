package io.hopscope.samples.bench;

/**
 * The bench's section of a markdown file, between {@code <!-- bench:begin -->} and
 * {@code <!-- bench:end -->}: replaced in place, the rest of the file kept as it was.
 */
final class MarkdownSection {

    static final String BEGIN = "<!-- bench:begin -->";
    static final String END = "<!-- bench:end -->";

    private MarkdownSection() {
    }

    /**
     * The file's text with its section's body replaced by {@code body}; a file without markers gets
     * the section at its end, a missing (null) or empty file is the section alone.
     *
     * @throws IllegalArgumentException when the markers are unpaired or out of order (what to do is the user's call)
     */
    static String replace(String existing, String body) {
        String section = BEGIN + "\n" + (body.endsWith("\n") ? body : body + "\n") + END;
        if (existing == null || existing.isBlank()) {
            return section + "\n";
        }
        int begin = existing.indexOf(BEGIN);
        int end = existing.indexOf(END);
        if (begin < 0 && end < 0) {
            return existing + (existing.endsWith("\n") ? "\n" : "\n\n") + section + "\n";
        }
        if (begin < 0 || end < 0 || end < begin || existing.indexOf(BEGIN, begin + 1) >= 0
                || existing.indexOf(END, end + 1) >= 0) {
            throw new IllegalArgumentException("needs one " + BEGIN + " followed by one " + END);
        }
        return existing.substring(0, begin) + section + existing.substring(end + END.length());
    }
}
