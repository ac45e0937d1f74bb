package io.hopscope.analyzer.model;

/**
 * The time an inbound request waited in its server's queue: {@code hops} hand-overs of it to the
 * server's request thread (hopscope.Hop with serverQueue: Tomcat's poller to its executor, Undertow's
 * I/O thread to a worker; usually one, the first hop) and their delays summed ({@code nanos}). Apart
 * from the request's own hops and queue delay, which are the application's; {@link #NONE} for a
 * request without such a hand-over.
 */
public record ServerQueue(int hops, long nanos) {

    public static final ServerQueue NONE = new ServerQueue(0, 0);

    /** Whether the server handed the request over at all. */
    public boolean queued() {
        return hops > 0;
    }
}
