package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A continuous stretch of one thread working on one request. */
@Name("hopscope.Segment")
@Label("Segment")
@Description("A continuous stretch of one thread working on one request.")
@Category("hopscope")
@StackTrace(false)
public final class SegmentEvent extends Event {

    @Label("Request Id")
    @Description("The request this stretch worked on.")
    public long requestId;

    @Label("Kind")
    @Description("start, task or resume: what began the stretch.")
    public String kind;

    @Label("Allocated Bytes")
    @Description("Bytes the thread allocated during the stretch (exact).")
    public long allocatedBytes;

    @Label("CPU Nanos")
    @Description("CPU time of the thread during the stretch, or -1.")
    public long cpuNanos;
}
