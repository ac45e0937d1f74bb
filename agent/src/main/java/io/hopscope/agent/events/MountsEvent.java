package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A virtual thread's runs on carrier threads while it worked on a request, written by the virtual
 * thread when it is done with the request (it ends, or the request it began ends). Spans from the
 * start of that work to its end.
 */
@Name("hopscope.Mounts")
@Label("Mounts")
@Description("A virtual thread's runs on carrier threads while it worked on a request.")
@Category("hopscope")
@StackTrace(false)
public final class MountsEvent extends Event {

    @Label("Request Id")
    @Description("The request the virtual thread (the event's thread) worked on.")
    public long requestId;

    @Label("Mounts")
    @Description("Times a carrier ran the virtual thread: its first run, and each after it parked, blocked or yielded.")
    public int mounts;

    @Label("Carriers")
    @Description("The carrier threads' names, distinct, in the order first used; at most 8, then \"+N\".")
    public String carriers;

    @Label("Mount Wait")
    @Description("Total time from a submission to the scheduler (start, unpark, yield) to a carrier running it.")
    @Timespan(Timespan.NANOSECONDS)
    public long mountWaitNanos;

    @Label("Max Mount Wait")
    @Description("The longest of those waits.")
    @Timespan(Timespan.NANOSECONDS)
    public long maxMountWaitNanos;

    @Label("Mounted")
    @Description("Total time the virtual thread was mounted on a carrier.")
    @Timespan(Timespan.NANOSECONDS)
    public long mountedNanos;

    @Label("Allocated Bytes")
    @Description("Bytes the virtual thread allocated while mounted, from its carriers' allocation counters"
            + " (a virtual thread has none of its own before JDK 26); -1 when they could not be read.")
    public long allocatedBytes;
}
