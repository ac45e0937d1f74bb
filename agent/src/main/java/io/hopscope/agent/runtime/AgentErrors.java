package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.HookErrors;
import io.hopscope.agent.events.AgentErrorEvent;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Failures inside the agent's own code: counted per instrumentation (a hook, an adapter, a helper)
 * or per task of the agent's own (see {@link #reportTask}), reported once as an AgentError event and
 * one stderr line, and never thrown into the application. The table is bounded by the fixed sets of
 * instrumentation and task names.
 */
public final class AgentErrors implements HookErrors {

    /** Where the Bridge reports a hook's failure: as {@link #report} does. */
    static final AgentErrors FOR_HOOKS = new AgentErrors();

    /** What failed: an instrumentation by its name, or a task of the agent's own; the other is empty. */
    /** A map key: which instrumentation or agent task failed. */
    private static final class Source {
        private final String instrumentation;
        private final String task;

        Source(String instrumentation, String task) {
            this.instrumentation = instrumentation;
            this.task = task;
        }

        String instrumentation() {
            return instrumentation;
        }

        String task() {
            return task;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Source && ((Source) o).instrumentation.equals(instrumentation)
                    && ((Source) o).task.equals(task);
        }

        @Override
        public int hashCode() {
            return 31 * instrumentation.hashCode() + task.hashCode();
        }
    }

    private static final Map<Source, AtomicLong> COUNTS = new ConcurrentHashMap<>();
    private static final Map<Source, String> FIRST_MESSAGES = new ConcurrentHashMap<>();
    static final int MAX_MESSAGE = 300;
    private static final Pattern URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s\"'<>]+");
    private static final Pattern CREDENTIAL = Pattern.compile(
            "(?i)([\\w-]*(?:authorization|cookie|key|token|secret|password|passwd|pwd|sig|signature|credential|code)[\\w-]*)"
                    + "(\\s*[:=]\\s*)(?:\"[^\"]*\"|(?:(?:Basic|Bearer|Digest|Negotiate|NTLM|SharedKey|SharedKeyLite|SharedAccessSignature)\\s+)?"
                    + "[^\\s,;&]+)");
    private static final UrlRedactor NO_QUERY = new UrlRedactor(Set.of());

    private AgentErrors() {
    }

    @Override
    public void onError(String instrumentation, Throwable error) {
        report(instrumentation, error);
    }

    /** An instrumentation's failure, by the instrumentation's name (as AgentInfo lists it). */
    public static void report(String instrumentation, Throwable error) {
        report(new Source(instrumentation, ""), "", error);
    }

    /**
     * A failure of one of the agent's own tasks, which no instrumentation owns: {@code warm-up},
     * {@code jit-training}, {@code agent-work}, {@code transform} (with the class in {@code subject}).
     */
    public static void reportTask(String task, String subject, Throwable error) {
        report(new Source("", task), subject, error);
    }

    private static void report(Source source, String subject, Throwable error) {
        try {
            AtomicLong count = COUNTS.computeIfAbsent(source, k -> new AtomicLong());
            if (count.incrementAndGet() == 1) {
                String message = (subject.isEmpty() ? "" : subject + ": ") + describe(error);
                FIRST_MESSAGES.put(source, message);
                System.err.println("hopscope: " + (source.task().isEmpty() ? "instrumentation " + source.instrumentation()
                        : "agent task " + source.task()) + " failed (" + message
                        + "); it keeps running, the application is not affected");
                commit(source, message, 1);
            }
        } catch (Throwable ignored) {
            // Reporting a failure must not become a failure of the application.
        }
    }

    private static void commit(Source source, String message, long count) {
        AgentErrorEvent event = new AgentErrorEvent();
        event.instrumentation = source.instrumentation();
        event.task = source.task();
        event.message = message;
        event.count = count;
        event.commit();
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
        for (Map.Entry<Source, AtomicLong> entry : COUNTS.entrySet()) {
            commit(entry.getKey(), FIRST_MESSAGES.get(entry.getKey()), entry.getValue().get());
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
