package io.hopscope.analyzer.output;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --trace-url}: where a request's distributed trace is shown (Tempo, Jaeger, a vendor), as a
 * template with {@code {traceId}} and {@code {spanId}} in it. Checked once when given: an http or https
 * URL with a host once the ids are in, no other placeholder, so that every link the report draws is one.
 */
public final class TraceUrl {

    private static final String TRACE_ID = "{traceId}";
    private static final String SPAN_ID = "{spanId}";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{[^{}]*}");

    private final String template;

    private TraceUrl(String template) {
        this.template = template;
    }

    /** The template, or IllegalArgumentException saying what is wrong with it. */
    public static TraceUrl parse(String template) {
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            if (!m.group().equals(TRACE_ID) && !m.group().equals(SPAN_ID)) {
                throw new IllegalArgumentException("unknown placeholder " + m.group() + " in '" + template
                        + "': only {traceId} and {spanId}");
            }
        }
        if (!template.contains(TRACE_ID) && !template.contains(SPAN_ID)) {
            throw new IllegalArgumentException("expected a URL with {traceId} or {spanId} in it, got '" + template + "'");
        }
        TraceUrl url = new TraceUrl(template);
        String example = url.link("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
        try {
            URI uri = new URI(example);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                throw new IllegalArgumentException("expected an http or https URL with a host, got '" + template + "'");
            }
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL once the ids are in: '" + template + "' (" + e.getReason() + ")");
        }
        return url;
    }

    /** The link of a request's ids (each 16 or 32 hex digits), or null when the template needs an id it has not. */
    public String link(String traceId, String spanId) {
        if (traceId == null && template.contains(TRACE_ID) || spanId == null && template.contains(SPAN_ID)) {
            return null;
        }
        String url = template;
        if (traceId != null) {
            url = url.replace(TRACE_ID, traceId);
        }
        return spanId == null ? url : url.replace(SPAN_ID, spanId);
    }
}
