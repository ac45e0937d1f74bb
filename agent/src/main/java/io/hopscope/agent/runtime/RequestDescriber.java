package io.hopscope.agent.runtime;

/** Knows one HTTP library's request and response objects (each library instrumentation has one). */
public interface RequestDescriber {

    /** The request's name and URL, or null when the object is not this library's request. */
    HttpRequestInfo describe(Object request, UrlRedactor redactor);

    /** The response's HTTP status, or -1 when the object is not this library's response. */
    int statusCode(Object response);
}
