package io.hopscope.analyzer.output;

/** Escaping of recording strings for the HTML outputs: as element text, and as JSON inside a script element. */
final class HtmlEscape {

    private HtmlEscape() {
    }

    /** For element text and quoted attribute values. */
    static String text(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * JSON text made safe inside {@code <script type="application/json">}: the parser ends a script at
     * {@code </script} whatever the quotes, and {@code <!--} changes how it scans, so every
     * {@code <}, {@code >} and {@code &} becomes a JSON escape (the same string to JSON.parse).
     */
    static String scriptJson(String json) {
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }
}
