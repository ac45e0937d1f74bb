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
 */
public final class FlameHtml {

    private FlameHtml() {
    }

    /** The whole self-contained page (the converter inlines its script; no network fetches). */
    public static String render(FoldedStacks stacks, String title) throws IOException {
        FlameGraph graph = new FlameGraph(new Arguments("--title", title));
        graph.parseCollapsed(new StringReader(stacks.toString()));
        ByteArrayOutputStream html = new ByteArrayOutputStream();
        graph.dump(html);
        return html.toString(StandardCharsets.UTF_8);
    }
}
