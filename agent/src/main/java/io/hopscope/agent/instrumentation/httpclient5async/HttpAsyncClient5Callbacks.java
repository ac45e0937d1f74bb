package io.hopscope.agent.instrumentation.httpclient5async;

import io.hopscope.agent.runtime.AgentErrors;
import io.hopscope.agent.runtime.AsyncAdapter;
import io.hopscope.agent.runtime.RequestState;
import io.hopscope.agent.runtime.Requests;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.core5.concurrent.FutureCallback;

/**
 * Wraps an async exchange's FutureCallback so that the request ends when the client completes it
 * (on the I/O reactor thread that read the response, or where the exchange failed). An exchange
 * without a callback (a caller that waits on the Future) is given one: its advice passes the client
 * instead, so that this adapter is found. Defined for each copy of HttpClient 5 by a
 * {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), which reaches it by name only.
 */
public final class HttpAsyncClient5Callbacks implements AsyncAdapter {
    @Override
    public Object wrapCallback(Requests requests, RequestState request, Object callback) {
        if (callback instanceof FutureCallback) {
            return new EndingCallback<>((FutureCallback<?>) callback, requests, request);
        }
        return callback instanceof CloseableHttpAsyncClient ? new EndingCallback<>(null, requests, request) : null;
    }

    @Override
    public Object endRequestOnCompletion(Requests requests, RequestState request, Object result) {
        return result instanceof EndingCallback && ((EndingCallback<?>) result).request == request ? result : null;
    }

    /** Ends the request, then calls the application's callback, if any. */
    static final class EndingCallback<T> implements FutureCallback<T> {
        private final FutureCallback<T> delegate;
        private final Requests requests;
        final RequestState request;

        @SuppressWarnings("unchecked")
        EndingCallback(FutureCallback<?> delegate, Requests requests, RequestState request) {
            this.delegate = (FutureCallback<T>) delegate;
            this.requests = requests;
            this.request = request;
        }

        @Override
        public void completed(T result) {
            end("ok", null, result);
            if (delegate != null) {
                delegate.completed(result);
            }
        }

        @Override
        public void failed(Exception e) {
            end("error", e, null);
            if (delegate != null) {
                delegate.failed(e);
            }
        }

        @Override
        public void cancelled() {
            end("cancelled", null, null);
            if (delegate != null) {
                delegate.cancelled();
            }
        }

        private void end(String outcome, Throwable error, Object result) {
            try {
                requests.asyncTerminated(request, outcome, error, result);
            } catch (Throwable t) {
                AgentErrors.report("httpclient5-async", t);
            }
        }
    }
}
