package io.hopscope.agent.runtime;

/**
 * Knows one server library's exchange (its request object): how the inbound request is named, what
 * trace context its caller sent, its status, and whether it goes on after the server's entry
 * returns. Each server instrumentation has one, defined for each copy of the library by a
 * LibraryHelper. Its {@link #statusCode} also answers for the exchange when the request ends elsewhere.
 */
public interface ServerDescriber extends RequestDescriber {

    /** A server's exchange is never a client's request. */
    @Override
    default HttpRequestInfo describe(Object request, UrlRedactor redactor) {
        return null;
    }

    /** Whether the object is this library's exchange. */
    boolean describes(Object exchange);

    /**
     * The request's name and URL ({@link HttpRequestInfo#server}), or null when the object is not
     * this library's exchange.
     */
    HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor);

    /**
     * The object the server's end hook reports for this exchange (ServerHooks#serverEnd): the
     * exchange itself, unless the library ends a different object of the same exchange (the JDK
     * server's internal exchange behind the one its handlers get).
     */
    default Object endKey(Object exchange) {
        return exchange;
    }

    /**
     * Whether every object this describer describes is an exchange of its own, never a layer of
     * another (reactor-netty's operations, one per request): then its server's entry for one, on a
     * thread still in another of its requests (a connection's next request read in the task that
     * ends the last), begins its own request. False where the server's layers may pass on a wrapper
     * of the exchange (the JDK server's filters).
     */
    default boolean exchangesAreDistinct() {
        return false;
    }

    /** The W3C {@code traceparent} header the caller sent, or null (read only when no OpenTelemetry span is current). */
    String traceparent(Object exchange);

    /**
     * The exception the server caught from the request's handler and answered for itself (Undertow
     * answers 500 and keeps it on the exchange), or null: the request's error when its end hook
     * reports none ({@link io.hopscope.agent.bootstrap.ServerHooks#serverEnd}).
     */
    default Throwable failure(Object exchange) {
        return null;
    }

    /**
     * The outcome of a request whose end was reported with {@code response} (ServerHooks#serverEndWith:
     * gRPC's Status): {@code ok}, {@code error} or {@code cancelled}. Its status code is
     * {@link #statusCode} of the same response.
     */
    default String outcome(Object response) {
        return "ok";
    }

    /** The failure {@code response} carries (gRPC's Status cause), whose class is the request's error; or null. */
    default Throwable cause(Object response) {
        return null;
    }

    /**
     * Whether the exchange ended because its connection closed before its response was complete
     * (the client went away mid-response): its request is then {@code cancelled}, unless it failed.
     * Asked when its end hook reports the exchange's end.
     */
    default boolean connectionLost(Object exchange) {
        return false;
    }

    /**
     * Whether the exchange goes on after the server's entry returns (an async servlet, a Jetty
     * request whose callback is not completed yet): then this describer has arranged for the request
     * to end when the exchange completes ({@link Requests#asyncTerminated}, or a listener that calls
     * it). Called at most once per request that is still open. Until it ends, the request is kept
     * by the exchange's {@link #endKey}: the server's entry with that exchange again, on a thread
     * outside it (an async servlet's dispatch), resumes it rather than beginning another.
     */
    default boolean continuesAfterReturn(Requests requests, RequestState request, Object exchange) {
        return false;
    }

    /**
     * The status of a response whose server's entry threw ({@code thrown}, null when it returned):
     * what the server will answer for it (a servlet container answers 500 for an exception out of a
     * servlet whose response is not committed yet), -1 when nothing will be.
     */
    default int statusCode(Object response, Throwable thrown) {
        return statusCode(response);
    }

    /**
     * The route template a framework matched for the exchange (Spring MVC's best-matching pattern,
     * kept in the request's attributes), read when a server's entry or its first layer returns;
     * null: none.
     */
    default String route(Object exchange) {
        return null;
    }
}
