package io.hopscope.samples.bench.agents;

import java.lang.instrument.Instrumentation;

/**
 * The {@code empty-agent} configuration's agent (issue #45): a premain that does nothing, so a run under it
 * measures what any java agent costs a JVM (the instrumentation machinery switched on, the agent jar opened),
 * the floor hopscope's start-up is held against. The bench writes it into a jar of its own at run time.
 */
public final class EmptyAgent {

    private EmptyAgent() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
    }
}
