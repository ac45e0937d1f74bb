package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A blocking wait on a non-blocking thread (deadlock-prone), with its stack trace. */
@Name("hopscope.NonBlockingWait")
@Label("Non-Blocking Wait")
@Description("A blocking wait on a non-blocking thread (deadlock-prone), with its stack trace.")
@Category("hopscope")
@StackTrace(true)
public final class NonBlockingWaitEvent extends Event {

    @Label("Request Id")
    @Description("The request the waiting thread worked on, or 0.")
    public long requestId;

    @Label("Kind")
    @Description("The kind of wait, as in hopscope.Wait.")
    public String kind;
}
