package io.hopscope.agent;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;

/**
 * The class the jar's manifest names (Premain-Class, Agent-Class). It is compiled for Java 8, the
 * oldest class file any JVM in use loads, apart from the rest of the agent (JDK 11): on a JDK the
 * agent does not support it prints one line and returns, and the application runs without the
 * agent, where a class it cannot load would abort the JVM before main ("processing of -javaagent
 * failed"). It reaches {@link AgentStart} only through reflection, so that no newer class is loaded
 * before the check, and turns any failure on the way into one line as well.
 */
public final class HopscopeAgent {

    /** The oldest JDK the agent runs on (its class files, its APIs). */
    static final int OLDEST_FEATURE = 11;

    private HopscopeAgent() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
        start(options, instrumentation, false);
    }

    public static void agentmain(String options, Instrumentation instrumentation) {
        start(options, instrumentation, true);
    }

    private static void start(String options, Instrumentation instrumentation, boolean late) {
        try {
            String refusal = refusal(System.getProperty("java.version"));
            if (refusal != null) {
                System.err.println(refusal);
                return;
            }
            Class.forName("io.hopscope.agent.AgentStart", true, HopscopeAgent.class.getClassLoader())
                    .getMethod("start", String.class, Instrumentation.class, boolean.class)
                    .invoke(null, options, instrumentation, late);
        } catch (Throwable t) {
            // AgentStart says why itself when the install fails; this is whatever stopped us reaching it.
            Throwable cause = t instanceof InvocationTargetException && t.getCause() != null ? t.getCause() : t;
            System.err.println("hopscope: agent not started (" + cause + "); the application runs without it");
        }
    }

    /**
     * The line that refuses a JDK older than {@value #OLDEST_FEATURE}, named by its
     * {@code java.version}; null for a newer one, and for a version it cannot read (the start goes
     * on, and a class file too new for the JVM is one line too).
     */
    static String refusal(String javaVersion) {
        int feature = feature(javaVersion);
        if (feature < 0 || feature >= OLDEST_FEATURE) {
            return null;
        }
        return "hopscope: needs JDK " + OLDEST_FEATURE + " or later, this is " + javaVersion
                + "; the application runs without it";
    }

    /**
     * The feature release of a {@code java.version}: 8 for "1.8.0_402" (before JDK 9 the version
     * began with "1."), 10 for "10.0.2", 25 for "25-ea"; -1 when it does not begin with a number.
     */
    static int feature(String javaVersion) {
        if (javaVersion == null) {
            return -1;
        }
        String v = javaVersion.trim();
        if (v.startsWith("1.")) {
            v = v.substring(2);
        }
        int end = 0;
        while (end < v.length() && end < 9 && v.charAt(end) >= '0' && v.charAt(end) <= '9') {
            end++;
        }
        return end == 0 ? -1 : Integer.parseInt(v.substring(0, end));
    }
}
