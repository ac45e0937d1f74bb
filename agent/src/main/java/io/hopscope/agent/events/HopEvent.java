package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The request's execution arrived on another thread. */
@Name("hopscope.Hop")
@Label("Hop")
@Description("The request's execution arrived on another thread.")
@Category("hopscope")
@StackTrace(false)
public final class HopEvent extends Event {

    @Label("Request Id")
    @Description("The request that hopped.")
    public long requestId;

    @Label("Kind")
    @Description("handoff (a task started on another thread), wake (a parked waiter was woken) or return"
            + " (a result another thread completed was picked up without parking).")
    public String kind;

    @Label("From Thread")
    @Description("The thread the request left.")
    public Thread fromThread;

    @Label("To Thread")
    @Description("The thread the request arrived on; null when it is the event's own thread.")
    public Thread toThread;

    @Label("Delay Nanos")
    @Description("Queue delay (handoff; for a scheduled task, from when it was due), wake latency (wake)"
            + " or completion to pickup (return).")
    public long delayNanos;

    @Label("Via")
    @Description("The executor's class (handoff) or the waited-on class (wake, return).")
    public String via;

    @Label("Scheduled Nanos")
    @Description("The delay a scheduled task waited by design before it was due (handoff); 0 otherwise.")
    public long scheduledNanos;

    @Label("Server Queue")
    @Description("Whether this is an inbound request's hand-over to the server's request thread: its delay is"
            + " the time the request waited in the server's queue.")
    public boolean serverQueue;
}
