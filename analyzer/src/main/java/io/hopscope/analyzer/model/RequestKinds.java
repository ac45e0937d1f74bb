package io.hopscope.analyzer.model;

/**
 * How many requests of a name are of each kind (hopscope.Request's {@code kind}): {@code server} (an
 * inbound request a server received), {@code client} (a call made through a known client),
 * {@code internal} (a {@code requests=} boundary). Requests of a recording from before the field have
 * none, and count in none of the three.
 */
public record RequestKinds(long server, long client, long internal) {

    public static final String SERVER = "server";
    public static final String CLIENT = "client";
    public static final String INTERNAL = "internal";

    public static final RequestKinds NONE = new RequestKinds(0, 0, 0);

    /** This and {@code o} together. */
    public RequestKinds plus(RequestKinds o) {
        return new RequestKinds(server + o.server, client + o.client, internal + o.internal);
    }

    /** Whether any request had a known kind. */
    public boolean any() {
        return server > 0 || client > 0 || internal > 0;
    }
}
