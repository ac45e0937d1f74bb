package io.hopscope.agent.instrumentation.jetty;

import io.hopscope.agent.runtime.AgentErrors;
import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestState;
import io.hopscope.agent.runtime.Requests;
import io.hopscope.agent.runtime.ServerDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import java.nio.ByteBuffer;
import java.util.function.Function;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Names Jetty 12's requests and ends each one when its exchange completes. The exchange it is given
 * is the request's {@code Response} (the server entry's second argument), which leads to its
 * {@code Request} and has its status. When {@code Server#handle} returns, the request's
 * {@code HttpStream} is wrapped ({@code Request#addHttpStreamWrapper}) so that its {@code succeeded}
 * or {@code failed}, which Jetty calls once, after the handler's callback has completed, the handling
 * thread has returned and the last write has completed, whichever comes last, on whichever thread
 * that is, ends the request. Defined for each copy of Jetty by a
 * {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), which reaches it by name only.
 */
public final class JettyDescriber implements ServerDescriber {

    @Override
    public boolean describes(Object exchange) {
        return exchange instanceof Response;
    }

    @Override
    public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
        Request request = exchange instanceof Response ? ((Response) exchange).getRequest() : null;
        if (request == null) {
            return null;
        }
        HttpURI uri = request.getHttpURI();
        return HttpRequestInfo.server(request.getMethod(), uri == null ? null : uri.getPath(),
                uri == null ? null : uri.getQuery(), redactor);
    }

    @Override
    public String traceparent(Object exchange) {
        Request request = exchange instanceof Response ? ((Response) exchange).getRequest() : null;
        return request == null ? null : request.getHeaders().get("traceparent");
    }

    /**
     * Always, for a request whose stream can be wrapped: Jetty completes its stream only after
     * {@code Server#handle} has returned (HttpChannelState's handler invoker completes it then, or the
     * callback's completion later), so the wrapper added here sees its end. A request with no active
     * stream (a handler called outside a connection) ends when its entry returns.
     */
    @Override
    public boolean continuesAfterReturn(Requests requests, RequestState request, Object exchange) {
        Request jettyRequest = exchange instanceof Response ? ((Response) exchange).getRequest() : null;
        if (jettyRequest == null) {
            return false;
        }
        try {
            jettyRequest.addHttpStreamWrapper(new Wrap(requests, request, (Response) exchange));
            return true;
        } catch (IllegalStateException | UnsupportedOperationException noStream) {
            return false;
        }
    }

    /**
     * The status the exchange's stream sent after the entry returned (the error page Jetty writes after
     * a failed callback is a response of its own, 500, not the handler's), else the handler's response's.
     */
    @Override
    public int statusCode(Object response) {
        if (response instanceof EndingStream) {
            EndingStream stream = (EndingStream) response;
            return stream.sentStatus >= 0 ? stream.sentStatus : stream.response.getStatus();
        }
        return response instanceof Response ? ((Response) response).getStatus() : -1;
    }

    /** Wraps the request's stream (no lambda: the helper's bytes are remapped for a relocated copy). */
    static final class Wrap implements Function<HttpStream, HttpStream> {
        private final Requests requests;
        private final RequestState request;
        private final Response response;

        Wrap(Requests requests, RequestState request, Response response) {
            this.requests = requests;
            this.request = request;
            this.response = response;
        }

        @Override
        public HttpStream apply(HttpStream stream) {
            return new EndingStream(stream, requests, request, response);
        }
    }

    /**
     * The request's stream from its entry's return on: remembers the status of a response it sends
     * from then on, and ends the request when Jetty succeeds or fails it.
     */
    static final class EndingStream extends HttpStream.Wrapper {
        private final Requests requests;
        private final RequestState request;
        final Response response;
        volatile int sentStatus = -1;

        EndingStream(HttpStream wrapped, Requests requests, RequestState request, Response response) {
            super(wrapped);
            this.requests = requests;
            this.request = request;
            this.response = response;
        }

        @Override
        public void send(MetaData.Request metaRequest, MetaData.Response sent, boolean last, ByteBuffer content,
                Callback callback) {
            if (sent != null && sent.getStatus() >= 200) {
                sentStatus = sent.getStatus(); // an interim 1xx is not the exchange's status
            }
            super.send(metaRequest, sent, last, content, callback);
        }

        @Override
        public void succeeded() {
            end("ok", null);
            super.succeeded();
        }

        @Override
        public void failed(Throwable x) {
            end("error", x);
            super.failed(x);
        }

        private void end(String outcome, Throwable failure) {
            try {
                requests.asyncTerminated(request, outcome, failure, this);
            } catch (Throwable t) {
                AgentErrors.report("jetty", t);
            }
        }
    }
}
