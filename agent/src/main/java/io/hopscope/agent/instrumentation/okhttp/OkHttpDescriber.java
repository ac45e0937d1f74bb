package io.hopscope.agent.instrumentation.okhttp;

import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import okhttp3.Call;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Names OkHttp calls and reads their responses' status. Defined for each copy of OkHttp by a
 * {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), which reaches it by name only.
 */
public final class OkHttpDescriber implements RequestDescriber {
    @Override
    public HttpRequestInfo describe(Object request, UrlRedactor redactor) {
        Request http = request instanceof Call ? ((Call) request).request()
                : request instanceof Request ? (Request) request : null;
        if (http == null) {
            return null;
        }
        return HttpRequestInfo.of(http.method(), http.url().toString(), redactor);
    }

    @Override
    public int statusCode(Object response) {
        return response instanceof Response ? ((Response) response).code() : -1;
    }
}
