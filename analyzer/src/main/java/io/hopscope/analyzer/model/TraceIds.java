package io.hopscope.analyzer.model;

import java.util.regex.Pattern;

/**
 * W3C trace context ids as a request carries them ({@code traceId}, {@code spanId}): 32 and 16
 * lowercase hex digits, not all zero (W3C's invalid value). Anything else in a recording is no id.
 */
public final class TraceIds {

    private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{32}");
    private static final Pattern SPAN_ID = Pattern.compile("[0-9a-f]{16}");

    private TraceIds() {
    }

    public static boolean isTraceId(String id) {
        return id != null && TRACE_ID.matcher(id).matches() && !allZero(id);
    }

    public static boolean isSpanId(String id) {
        return id != null && SPAN_ID.matcher(id).matches() && !allZero(id);
    }

    private static boolean allZero(String id) {
        return id.chars().allMatch(c -> c == '0');
    }
}
