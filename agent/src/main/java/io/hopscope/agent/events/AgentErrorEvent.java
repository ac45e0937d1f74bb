package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/** An instrumentation of the hopscope agent, or a task of its own, failed; the application was not affected. */
@Name("hopscope.AgentError")
@Label("Agent Error")
@Description("An instrumentation of the hopscope agent, or a task of its own, failed; the application was not affected.")
@Category("hopscope")
@StackTrace(false)
@Period("endChunk")
public final class AgentErrorEvent extends Event {

    @Label("Instrumentation")
    @Description("The instrumentation that failed; empty when a task of the agent's own failed.")
    public String instrumentation;

    @Label("Task")
    @Description("The agent's own task that failed (warm-up, jit-training, agent-work, transform); empty when an"
            + " instrumentation failed.")
    public String task;

    @Label("Message")
    @Description("The first failure's exception and message.")
    public String message;

    @Label("Count")
    @Description("Failures of this instrumentation or task so far.")
    public long count;
}
