package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** One invocation of a pipeline policy, interceptor or nested boundary. */
@Name("hopscope.Span")
@Label("Span")
@Description("One invocation of a pipeline policy, interceptor, HTTP client send or nested boundary.")
@Category("hopscope")
@StackTrace(false)
public final class SpanEvent extends Event {

    @Label("Request Id")
    @Description("The request the invocation belongs to.")
    public long requestId;

    @Label("Span Id")
    @Description("Unique in the JVM run.")
    public long spanId;

    @Label("Parent Span Id")
    @Description("The enclosing span, or 0 at the top.")
    public long parentSpanId;

    @Label("Kind")
    @Description("policy, interceptor, http (an azure-core HttpClient send) or boundary.")
    public String kind;

    @Label("Name")
    @Description("The implementing class, or Class#method for a boundary.")
    public String name;

    @Label("Mode")
    @Description("sync or async (subscription to terminal signal).")
    public String mode;

    @Label("Depth")
    @Description("0 at the top.")
    public int depth;
}
