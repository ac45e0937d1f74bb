package io.hopscope.agent.runtime;

/**
 * Reads a W3C Trace Context {@code traceparent} header ({@code 00-<trace-id>-<parent-id>-<flags>}):
 * the trace an inbound request belongs to and the caller's span. Anything malformed is no trace
 * context (null), never an exception: the header comes from the network.
 */
final class TraceParent {

    private static final int TRACE_ID_LENGTH = 32;
    private static final int SPAN_ID_LENGTH = 16;
    /** version "-" trace-id "-" parent-id "-" flags. */
    private static final int LENGTH = 2 + 1 + TRACE_ID_LENGTH + 1 + SPAN_ID_LENGTH + 1 + 2;

    private TraceParent() {
    }

    /** {@code [traceId, spanId]} of a valid header, or null. */
    static String[] parse(String header) {
        if (header == null) {
            return null;
        }
        String h = header.trim();
        // Version 00 is exactly this long; a later version may append fields after a dash.
        if (h.length() < LENGTH || h.length() > LENGTH && (h.startsWith("00") || h.charAt(LENGTH) != '-')) {
            return null;
        }
        if (!isHex(h, 0, 2) || h.startsWith("ff") || h.charAt(2) != '-' || h.charAt(35) != '-' || h.charAt(52) != '-'
                || !isHex(h, 3, 35) || !isHex(h, 36, 52) || !isHex(h, 53, 55)) {
            return null;
        }
        String traceId = h.substring(3, 35);
        String spanId = h.substring(36, 52);
        if (allZeros(traceId) || allZeros(spanId)) {
            return null;
        }
        return new String[] {traceId, spanId};
    }

    /** Lowercase hex only, as the specification requires. */
    private static boolean isHex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean allZeros(String id) {
        for (int i = 0; i < id.length(); i++) {
            if (id.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }
}
