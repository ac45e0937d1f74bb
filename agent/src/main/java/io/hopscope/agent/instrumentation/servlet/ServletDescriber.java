package io.hopscope.agent.instrumentation.servlet;

import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestState;
import io.hopscope.agent.runtime.Requests;
import io.hopscope.agent.runtime.ServerDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Names Servlet API requests, reads their responses' status and Spring MVC's route, and ends an
 * async request at its AsyncListener's events (see ServletInstrumentation). Compiled against
 * {@code jakarta.servlet}; defined for each copy of the API by a
 * {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it), for {@code javax.servlet}
 * with that package's names in place of jakarta's (the classes and methods it names are the same in both).
 */
public final class ServletDescriber implements ServerDescriber {

    /** Spring MVC's HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE. */
    static final String SPRING_ROUTE = "org.springframework.web.servlet.HandlerMapping.bestMatchingPattern";

    @Override
    public boolean describes(Object exchange) {
        return exchange instanceof ServletRequest;
    }

    @Override
    public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
        if (!(exchange instanceof HttpServletRequest)) {
            return null;
        }
        HttpServletRequest http = (HttpServletRequest) exchange;
        return HttpRequestInfo.server(http.getMethod(), http.getRequestURI(), http.getQueryString(), redactor);
    }

    @Override
    public String traceparent(Object exchange) {
        return exchange instanceof HttpServletRequest ? ((HttpServletRequest) exchange).getHeader("traceparent") : null;
    }

    @Override
    public int statusCode(Object response) {
        return response instanceof HttpServletResponse ? ((HttpServletResponse) response).getStatus() : -1;
    }

    @Override
    public int statusCode(Object response, Throwable thrown) {
        if (thrown != null && response instanceof ServletResponse && !((ServletResponse) response).isCommitted()) {
            return HttpServletResponse.SC_INTERNAL_SERVER_ERROR; // what the container answers for it
        }
        return statusCode(response);
    }

    /** The container's own request under the application's and the dispatcher's wrappers. */
    @Override
    public Object endKey(Object exchange) {
        Object request = exchange;
        for (int i = 0; i < 16 && request instanceof ServletRequestWrapper; i++) {
            request = ((ServletRequestWrapper) request).getRequest();
        }
        return request;
    }

    @Override
    public String route(Object exchange) {
        Object route = exchange instanceof ServletRequest ? ((ServletRequest) exchange).getAttribute(SPRING_ROUTE) : null;
        return route instanceof String ? (String) route : null;
    }

    @Override
    public boolean continuesAfterReturn(Requests requests, RequestState request, Object exchange) {
        if (!(exchange instanceof ServletRequest)) {
            return false;
        }
        ServletRequest servletRequest = (ServletRequest) exchange;
        if (!servletRequest.isAsyncStarted()) {
            return false;
        }
        try {
            servletRequest.getAsyncContext().addListener(new EndOnComplete(requests, request));
            return true;
        } catch (IllegalStateException completedMeanwhile) {
            return false; // the async cycle completed on another thread: the request ends here
        }
    }

    /** Ends an async request when its async cycle does. */
    static final class EndOnComplete implements AsyncListener {
        private final Requests requests;
        private final RequestState request;

        EndOnComplete(Requests requests, RequestState request) {
            this.requests = requests;
            this.request = request;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            requests.asyncTerminated(request, "ok", null, response(event));
        }

        @Override
        public void onError(AsyncEvent event) {
            requests.asyncTerminated(request, "error", event.getThrowable(), response(event));
        }

        /** The container answers a timeout after this (an error dispatch, 500): no status yet. */
        @Override
        public void onTimeout(AsyncEvent event) {
            requests.asyncTerminated(request, "timeout", null, null);
        }

        /** A new async cycle (startAsync after a dispatch): its listeners are new, so this one joins them. */
        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this);
        }

        private static ServletResponse response(AsyncEvent event) {
            ServletResponse supplied = event.getSuppliedResponse();
            return supplied != null || event.getAsyncContext() == null ? supplied : event.getAsyncContext().getResponse();
        }
    }
}
