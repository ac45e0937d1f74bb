package io.hopscope.agent.runtime;

import io.hopscope.agent.events.AgentErrorEvent;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failures inside the agent's own code: counted per instrumentation, reported once as an
 * AgentError event and one stderr line, and never thrown into the application. The table is
 * bounded by the fixed set of instrumentation names.
 */
public final class AgentErrors {

    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();
    private static final Map<String, String> FIRST_MESSAGES = new ConcurrentHashMap<>();

    private AgentErrors() {
    }

    public static void report(String instrumentation, Throwable error) {
        try {
            AtomicLong count = COUNTS.computeIfAbsent(instrumentation, k -> new AtomicLong());
            if (count.incrementAndGet() == 1) {
                String message = error.getClass().getName() + ": " + error.getMessage();
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
