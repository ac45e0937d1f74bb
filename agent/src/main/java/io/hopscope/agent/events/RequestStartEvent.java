package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A request has begun: written where its boundary is entered, for watchers that must count a request
 * in flight before it ends ({@code hopscope live}). Off by default, in hopscope.jfc too: a recording
 * has the start in hopscope.Request's start time, and the hot path then pays only the enabled check.
 */
@Name("hopscope.RequestStart")
@Label("Request Start")
@Description("A request has begun, on the thread that entered its boundary (off unless a watcher enables it).")
@Category("hopscope")
@StackTrace(false)
@Enabled(false)
public final class RequestStartEvent extends Event {

    @Label("Request Id")
    @Description("The request's id, as in its hopscope.Request.")
    public long requestId;

    @Label("Name")
    @Description("The request's name, as in its hopscope.Request (known at the start and never changed).")
    public String name;
}
