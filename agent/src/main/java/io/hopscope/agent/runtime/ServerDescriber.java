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

    /** The W3C {@code traceparent} header the caller sent, or null (read only when no OpenTelemetry span is current). */
    String traceparent(Object exchange);

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
     * Whether the exchange goes on after the server's entry returns (an async servlet, a Jetty
     * request whose callback is not completed yet): then this describer has arranged for the request
     * to end when the exchange completes ({@link Requests#asyncTerminated}, or a listener that calls
     * it). Called at most once per request that is still open.
     */
    default boolean continuesAfterReturn(Requests requests, RequestState request, Object exchange) {
        return false;
    }
}
