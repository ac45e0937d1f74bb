package io.hopscope.agent.instrumentation.okhttp;

import io.hopscope.agent.runtime.AgentErrors;
import io.hopscope.agent.runtime.AsyncAdapter;
import io.hopscope.agent.runtime.RequestState;
import io.hopscope.agent.runtime.Requests;
import java.io.IOException;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Response;

/**
 * Wraps an enqueued call's Callback so that the request ends when OkHttp calls it. Defined for each
 * copy of OkHttp by a {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it),
 * which reaches it by name only.
 */
public final class OkHttpCallbacks implements AsyncAdapter {
    @Override
    public Object wrapCallback(Requests requests, RequestState request, Object callback) {
        return callback instanceof Callback ? new EndingCallback((Callback) callback, requests, request) : null;
    }

    @Override
    public Object endRequestOnCompletion(Requests requests, RequestState request, Object result) {
        return result instanceof EndingCallback && ((EndingCallback) result).request == request ? result : null;
    }

    /** Ends the request, then calls the application's callback (on OkHttp's dispatcher thread). */
    static final class EndingCallback implements Callback {
        private final Callback delegate;
        private final Requests requests;
        final RequestState request;

        EndingCallback(Callback delegate, Requests requests, RequestState request) {
            this.delegate = delegate;
            this.requests = requests;
            this.request = request;
        }

        @Override
        public void onResponse(Call call, Response response) throws IOException {
            try {
                requests.asyncTerminated(request, "ok", null, response);
            } catch (Throwable t) {
                AgentErrors.report("okhttp", t);
            }
            delegate.onResponse(call, response);
        }

        @Override
        public void onFailure(Call call, IOException e) {
            try {
                requests.asyncTerminated(request, call.isCanceled() ? "cancelled" : "error", e, null);
            } catch (Throwable t) {
                AgentErrors.report("okhttp", t);
            }
            delegate.onFailure(call, e);
        }
    }
}
