package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The agent's own work on an application thread during one segment of a request (class loading
 * and transformation), written right after that segment's hopscope.Segment, which does not count it.
 */
@Name("hopscope.AgentWork")
@Label("Agent Work")
@Description("The agent's own work (class transformation) on a thread during one segment of a request.")
@Category("hopscope")
@StackTrace(false)
public final class AgentWorkEvent extends Event {

    @Label("Request Id")
    @Description("The request whose segment the work fell in.")
    public long requestId;

    @Label("Classes")
    @Description("Classes the JVM offered the agent for transformation (each class loaded) during the segment.")
    public int classes;

    @Label("Transformed Classes")
    @Description("Of those, classes the agent rewrote.")
    public int transformedClasses;

    @Label("Nanos")
    @Description("Wall time inside the agent's transformer.")
    @Timespan(Timespan.NANOSECONDS)
    public long nanos;

    @Label("CPU Nanos")
    @Description("CPU time inside the agent's transformer, or -1.")
    @Timespan(Timespan.NANOSECONDS)
    public long cpuNanos;

    @Label("Allocated Bytes")
    @Description("Bytes allocated inside the agent's transformer (exact), or -1.")
    public long allocatedBytes;
}
