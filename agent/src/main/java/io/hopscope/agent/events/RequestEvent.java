package io.hopscope.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** One request, from its boundary's entry to its end, possibly across threads. */
@Name("hopscope.Request")
@Label("Request")
@Description("One request, from its boundary's entry to its end, possibly across threads.")
@Category("hopscope")
@StackTrace(false)
public final class RequestEvent extends Event {

    @Label("Request Id")
    @Description("The request's id, unique in the JVM run, never 0.")
    public long requestId;

    @Label("Name")
    @Description("HTTP method, host and path, or Class#method for a requests= boundary.")
    public String name;

    @Label("Boundary")
    @Description("The outermost instrumented method.")
    public String boundary;

    @Label("URL")
    @Description("The full URL with the query reduced to the allow-list, or null.")
    public String url;

    @Label("Outcome")
    @Description("ok, error or cancelled.")
    public String outcome;

    @Label("Error")
    @Description("The exception's class name, or null.")
    public String error;

    @Label("Status Code")
    @Description("The HTTP status, or -1.")
    public int statusCode;

    @Label("Start Thread")
    @Description("The thread on which the request started; null when it is the event's own thread.")
    public Thread startThread;

    @Label("Trace Id")
    @Description("The W3C trace id (32 lowercase hex digits) current when the request began, or null.")
    public String traceId;

    @Label("Span Id")
    @Description("The W3C span id (16 lowercase hex digits) current when the request began, or null.")
    public String spanId;

    @Label("Kind")
    @Description("server (an inbound request a server received), client (a call made through a known client)"
            + " or internal (a requests= boundary).")
    public String kind;
}
