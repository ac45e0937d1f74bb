package io.hopscope.agent.instrumentation.httpclient5async;

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
 * Names Apache HttpClient 5 async requests by their request producer and reads their results'
 * status (a SimpleHttpResponse, or a Message whose head is the response). Defined for each copy of
 * HttpClient 5 by a {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), which
 * reaches it by name only.
 *
 * <p>The client only hands the request to the producer's channel, once the boundary has begun; the
 * producers the client's own builders make (SimpleRequestProducer, AsyncRequestBuilder's) are
 * BasicRequestProducers, which keep it in a private field with no getter: read here, once per
 * request. A producer of another kind is named by its boundary.
 */
public final class HttpAsyncClient5Describer implements RequestDescriber {

    /** BasicRequestProducer's request (httpcore5 5.0 to 5.4 at least); null when it cannot be read. */
    private final Field request = requestField();

    private static Field requestField() {
        try {
            Field f = BasicRequestProducer.class.getDeclaredField("request");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another version's producer, or a module that does not open it
        }
    }

    @Override
    public HttpRequestInfo describe(Object producer, UrlRedactor redactor) {
        if (request == null || !(producer instanceof BasicRequestProducer)) {
            return null;
        }
        Object held;
        try {
            held = request.get(producer);
        } catch (IllegalAccessException e) {
            return null;
        }
        if (!(held instanceof HttpRequest)) {
            return null;
        }
        HttpRequest http = (HttpRequest) held;
        String uri;
        try {
            uri = http.getUri().toString();
        } catch (URISyntaxException e) {
            uri = "?";
        }
        return HttpRequestInfo.of(http.getMethod(), uri, redactor);
    }

    @Override
    public int statusCode(Object response) {
        Object head = response instanceof Message ? ((Message<?, ?>) response).getHead() : response;
        return head instanceof HttpResponse ? ((HttpResponse) head).getCode() : -1;
    }
}
