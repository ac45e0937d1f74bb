package io.hopscope.agent.instrumentation.asynchttpclient;

import io.hopscope.agent.runtime.AsyncAdapter;
import io.hopscope.agent.runtime.RequestState;
import io.hopscope.agent.runtime.Requests;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import org.asynchttpclient.ListenableFuture;

/**
 * Ends a request when its ListenableFuture completes (on the Netty event loop that read the
 * response, or where the request failed); the future itself is returned as is. Defined for each
 * copy of AsyncHttpClient by a {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for
 * it), which reaches it by name only.
 */
public final class AsyncHttpClientFutures implements AsyncAdapter {
    @Override
    public Object endRequestOnCompletion(Requests requests, RequestState request, Object result) {
        if (!(result instanceof ListenableFuture)) {
            return null;
        }
        // Every ListenableFuture (NettyResponseFuture, CompletedFailure) is backed by a
        // CompletableFuture, completed with the handler's result or the request's failure.
        ((ListenableFuture<?>) result).toCompletableFuture().whenComplete((value, error) -> {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            String outcome = error == null ? "ok" : cause instanceof CancellationException ? "cancelled" : "error";
            requests.asyncTerminated(request, outcome, cause, value);
        });
        return result;
    }
}
