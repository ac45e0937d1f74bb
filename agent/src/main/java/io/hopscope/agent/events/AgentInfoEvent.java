package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/** The hopscope agent's version, options and applied instrumentations. */
@Name("hopscope.AgentInfo")
@Label("Agent Info")
@Description("The hopscope agent's version, options and applied instrumentations.")
@Category("hopscope")
@StackTrace(false)
@Period("everyChunk")
public final class AgentInfoEvent extends Event {

    @Label("Version")
    @Description("The agent's version.")
    public String version;

    @Label("Options")
    @Description("The agent's option string.")
    public String options;

    @Label("PID")
    @Description("The process id.")
    public long pid;

    @Label("Instrumentations")
    @Description("The ;-separated names of the instrumentations that were applied.")
    public String instrumentations;
}
