package io.hopscope.analyzer.output;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import one.convert.Arguments;
import one.convert.FlameGraph;

/**
 * Collapsed stacks to async-profiler's interactive HTML flame graph, by its own converter library
 * ({@code tools.profiler:jfr-converter}): search, zoom and the frame colours come from it, not from us.
 *
 * <p>The converter (4.5) writes frame names into a script as quoted strings, escaping quotes and
 * backslashes but not {@code </script>}, and the title into the page as it is. Frame names here come
 * from the recording (a request name is a URL, a thread name anything), so the title is HTML-escaped
 * before and every {@code <} in the frame strings is written as {@code \x3c} after: the same string to
 * the script, never markup to the HTML parser.
 */
public final class FlameHtml {

    private FlameHtml() {
    }

    /** The whole self-contained page (the converter inlines its script; no network fetches). */
    public static String render(FoldedStacks stacks, String title) throws IOException {
        FlameGraph graph = new FlameGraph(new Arguments("--title", HtmlEscape.text(title)));
        graph.parseCollapsed(new StringReader(stacks.toString()));
        ByteArrayOutputStream html = new ByteArrayOutputStream();
        graph.dump(html);
        return scriptSafe(html.toString(StandardCharsets.UTF_8));
    }

    // The frame strings sit between "const cpool = [" and "];" in the converter's page.
    static String scriptSafe(String page) {
        int start = page.indexOf(CPOOL_START);
        int end = start < 0 ? -1 : page.indexOf(CPOOL_END, start);
        if (start < 0 || end < 0) {
            throw new IllegalStateException("jfr-converter's flame graph page changed: no frame table found");
        }
        start += CPOOL_START.length();
        return page.substring(0, start) + page.substring(start, end).replace("<", "\\x3c") + page.substring(end);
    }

    private static final String CPOOL_START = "const cpool = [";
    private static final String CPOOL_END = "];\nunpack(cpool);";
}
