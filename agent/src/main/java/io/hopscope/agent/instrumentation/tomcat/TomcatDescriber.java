package io.hopscope.agent.instrumentation.tomcat;

import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.ServerDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import org.apache.coyote.Request;
import org.apache.coyote.Response;
import org.apache.tomcat.util.buf.MessageBytes;

/**
 * Names Tomcat's connector requests ({@code org.apache.coyote.Request}) and reads their status.
 * The name's path is the request URI as the client sent it (undecoded, the context path included),
 * like the other servers'; a framework's route replaces it. Defined for each copy of Tomcat by a
 * {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it).
 */
public final class TomcatDescriber implements ServerDescriber {

    @Override
    public boolean describes(Object exchange) {
        return exchange instanceof Request;
    }

    @Override
    public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
        if (!(exchange instanceof Request)) {
            return null;
        }
        Request request = (Request) exchange;
        return HttpRequestInfo.server(text(request.method()), text(request.requestURI()), text(request.queryString()),
                redactor);
    }

    @Override
    public String traceparent(Object exchange) {
        return exchange instanceof Request ? ((Request) exchange).getHeader("traceparent") : null;
    }

    @Override
    public int statusCode(Object response) {
        if (response instanceof Request) {
            Response r = ((Request) response).getResponse();
            return r == null ? -1 : r.getStatus();
        }
        return response instanceof Response ? ((Response) response).getStatus() : -1;
    }

    private static String text(MessageBytes bytes) {
        return bytes == null || bytes.isNull() ? null : bytes.toString();
    }
}
