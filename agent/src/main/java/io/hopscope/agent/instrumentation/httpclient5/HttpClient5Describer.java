package io.hopscope.agent.instrumentation.httpclient5;

import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import java.lang.reflect.Field;
import java.net.URISyntaxException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;

/**
 * Names Apache HttpClient 5 requests and reads their responses' status, for the classic client (the
 * request itself, its response) and the async one (its request producer; its result a
 * SimpleHttpResponse, or a Message whose head is the response). Defined for each copy of HttpClient
 * 5 by a {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), which reaches it
 * by name only, for each instrumentation's key types.
 *
 * <p>The async client only hands the request to the producer's channel, once the boundary has begun;
 * the producers the client's own builders make (SimpleRequestProducer, AsyncRequestBuilder's) are
 * BasicRequestProducers, which keep it in a private field with no getter: read here, once per
 * request. A producer of another kind is named by its boundary.
 */
public final class HttpClient5Describer implements RequestDescriber {

    /** BasicRequestProducer's request (httpcore5 5.0 to 5.4 at least); null when it cannot be read. */
    private final Field producersRequest = producersRequestField();

    private static Field producersRequestField() {
        try {
            Field f = BasicRequestProducer.class.getDeclaredField("request");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another version's producer, or a module that does not open it
        }
    }

    @Override
    public HttpRequestInfo describe(Object request, UrlRedactor redactor) {
        Object held = request instanceof BasicRequestProducer ? producersRequest(request) : request;
        if (!(held instanceof HttpRequest)) {
            return null;
        }
        HttpRequest http = (HttpRequest) held;
        String uri;
        try {
            // Absolute when the request was made from a URI; a path alone (a request sent to an
            // explicit HttpHost) is no URL, and the request is named by its method only.
            uri = http.getUri().toString();
        } catch (URISyntaxException e) {
            uri = "?";
        }
        return HttpRequestInfo.of(http.getMethod(), uri, redactor);
    }

    private Object producersRequest(Object producer) {
        if (producersRequest == null) {
            return null;
        }
        try {
            return producersRequest.get(producer);
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    @Override
    public int statusCode(Object response) {
        Object head = response instanceof Message ? ((Message<?, ?>) response).getHead() : response;
        return head instanceof HttpResponse ? ((HttpResponse) head).getCode() : -1;
    }
}
