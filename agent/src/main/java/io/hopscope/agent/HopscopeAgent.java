package io.hopscope.agent;

import java.lang.instrument.Instrumentation;

/** Entry point of the hopscope java agent: parses options and installs the instrumentation. */
public final class HopscopeAgent {

    private HopscopeAgent() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
        // Filled in by the agent issue.
    }

    public static void agentmain(String options, Instrumentation instrumentation) {
        premain(options, instrumentation);
    }
}
