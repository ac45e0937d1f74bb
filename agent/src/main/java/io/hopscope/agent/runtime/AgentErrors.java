package io.hopscope.agent.runtime;

import io.hopscope.agent.events.AgentErrorEvent;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Failures inside the agent's own code: counted per instrumentation, reported once as an
 * AgentError event and one stderr line, and never thrown into the application. The table is
 * bounded by the fixed set of instrumentation names.
 */
public final class AgentErrors {

    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();
    private static final Map<String, String> FIRST_MESSAGES = new ConcurrentHashMap<>();
    static final int MAX_MESSAGE = 300;
    private static final Pattern URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s\"'<>]+");
    private static final Pattern CREDENTIAL = Pattern.compile(
            "(?i)([\\w-]*(?:authorization|cookie|key|token|secret|password|passwd|pwd|sig|signature|credential|code)[\\w-]*)"
                    + "(\\s*[:=]\\s*)(?:\"[^\"]*\"|(?:(?:Basic|Bearer|Digest|Negotiate|NTLM|SharedKey|SharedKeyLite|SharedAccessSignature)\\s+)?"
                    + "[^\\s,;&]+)");
    private static final UrlRedactor NO_QUERY = new UrlRedactor(Set.of());

    private AgentErrors() {
    }

    public static void report(String instrumentation, Throwable error) {
        try {
            AtomicLong count = COUNTS.computeIfAbsent(instrumentation, k -> new AtomicLong());
            if (count.incrementAndGet() == 1) {
                String message = describe(error);
                FIRST_MESSAGES.put(instrumentation, message);
                System.err.println("hopscope: instrumentation " + instrumentation + " failed (" + message
                        + "); it keeps running, the application is not affected");
                AgentErrorEvent event = new AgentErrorEvent();
                event.instrumentation = instrumentation;
                event.message = message;
                event.count = 1;
                event.commit();
            }
        } catch (Throwable ignored) {
            // Reporting a failure must not become a failure of the application.
        }
    }

    /**
     * The failure as the recording and stderr show it: its class and its message with what might be
     * a secret taken out. The message is the one text in the agent's events that the agent did not
     * write itself: an exception thrown under a hook by the application's or a library's code may
     * quote a URL (with its SAS signature or user-info) or a header. URLs keep scheme, host, port and
     * path; the value of any {@code name=value} or {@code name: value} whose name sounds like a
     * credential is dropped (with an Authorization scheme's word before it); the whole is cut at {@value #MAX_MESSAGE} characters. Only the first
     * failure of an instrumentation gets here, so the regular expressions cost nothing that matters.
     */
    static String describe(Throwable error) {
        String message = error.getMessage();
        if (message == null) {
            return error.getClass().getName();
        }
        StringBuilder b = new StringBuilder();
        Matcher url = URL.matcher(message);
        while (url.find()) {
            String redacted = NO_QUERY.redact(url.group());
            url.appendReplacement(b, Matcher.quoteReplacement(redacted != null ? redacted : "<url>"));
        }
        url.appendTail(b);
        String text = CREDENTIAL.matcher(b).replaceAll("$1$2<redacted>");
        if (text.length() > MAX_MESSAGE) {
            text = text.substring(0, MAX_MESSAGE) + "...";
        }
        return error.getClass().getName() + ": " + text;
    }

    /** Emits the running counts; called by JFR at each chunk end. */
    public static void emitCounts() {
        for (Map.Entry<String, AtomicLong> entry : COUNTS.entrySet()) {
            AgentErrorEvent event = new AgentErrorEvent();
            event.instrumentation = entry.getKey();
            event.message = FIRST_MESSAGES.get(entry.getKey());
            event.count = entry.getValue().get();
            event.commit();
        }
    }

    public static long total() {
        long sum = 0;
        for (AtomicLong count : COUNTS.values()) {
            sum += count.get();
        }
        return sum;
    }
}
