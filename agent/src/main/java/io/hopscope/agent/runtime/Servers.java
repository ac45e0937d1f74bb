package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.bootstrap.ServerHooks;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Inbound requests: a server's entry into one on a thread begins it (kind {@code server}), named by
 * the library's {@link ServerDescriber}, with the caller's trace context, and starting where the
 * server handed it over to that thread (its queue, the request's first hop). Inside it, the
 * server's layers (a servlet inside Tomcat's adapter) and its entries on threads it hopped to are
 * part of it; a client's call made in it is a boundary span of it ({@link Requests}). It ends when
 * its entry returns, or, where the exchange goes on, when the library's listener, callback or end
 * hook says its response is complete. It implements the server hooks itself: the Bridge calls it straight.
 */
final class Servers implements ServerHooks {

    /**
     * serverEnter's token for an entry inside the request it belongs to: a layer of it, or the
     * server's entry on a thread the request hopped to. Its exit leaves the request where it is.
     */
    private static final Object LAYER = new Object();

    private final Requests requests;
    private final Handoffs handoffs;
    private final UrlRedactor redactor;
    private final List<ServerDescriber> describers = new CopyOnWriteArrayList<>();
    private final List<RouteDescriber> routeDescribers = new CopyOnWriteArrayList<>();
    /**
     * Requests that end when their exchange's end is reported (serverEnterUntilEnd), and those whose
     * describer arranged for their end when their entry returned (continuesAfterReturn) until they
     * end, by exchange, weakly held: an exchange dropped without an end goes with its entry.
     * Bridge.OPEN_EXCHANGES counts the entries put and not taken, so that no end report, and no
     * server entry outside a request, looks here while there is none.
     */
    private final Map<Object, RequestState> open = Collections.synchronizedMap(new WeakHashMap<>());

    Servers(Requests requests, Handoffs handoffs, UrlRedactor redactor) {
        this.requests = requests;
        this.handoffs = handoffs;
        this.redactor = redactor;
        requests.whenResumableEnds(this::forget);
    }

    void addDescriber(ServerDescriber describer) {
        describers.add(describer);
        requests.addDescriber(describer); // the status of an exchange whose request ends elsewhere
    }

    void addRouteDescriber(RouteDescriber describer) {
        routeDescribers.add(describer);
    }

    @Override
    public Object serverEnter(String boundary, Object exchange) {
        return enter(boundary, exchange, false, null, null);
    }

    @Override
    public Object serverEnterUntilEnd(String boundary, Object exchange) {
        return enter(boundary, exchange, true, null, null);
    }

    @Override
    public Object serverEnterCall(String boundary, Object exchange, String name, Object head) {
        ThreadState s = ThreadContexts.current();
        if ((s == null || s.request == null) && describer(exchange) == null) {
            return null; // no end would be reported for it
        }
        return enter(boundary, exchange, true, name, head);
    }

    /**
     * {@code name}: the request's name as the server's entry gives it (null: the describer's, from the
     * exchange); {@code head}: what the caller's traceparent is read from (null: the exchange).
     */
    private Object enter(String boundary, Object exchange, boolean untilEnd, String name, Object head) {
        ThreadState s = ThreadContexts.state();
        RequestState current = s.request;
        if (current != null) {
            if (current.kind != RequestState.SERVER) {
                // A server called inside a client's or the application's request (in process): a span of it.
                return Spans.recorded(current) ? Spans.openSyncSpan(s, "boundary", boundary, null) : null;
            }
            if (untilEnd && isAnotherRequest(current, exchange)) {
                // Not a part of the request this thread is still in, but the next one: the thread is done with that one.
                requests.leaveBoundary(s, current);
                s.serverDepth = 0;
            } else {
                if (s.serverDepth >= 2) {
                    return null; // deeper layers (a filter chain's every filter) need nothing
                }
                s.serverDepth++;
                if (current.traceFromWire) {
                    // The OpenTelemetry agent's server span, if it started one inside our entry, is the better parent.
                    takeOpenTelemetrySpan(current, exchange);
                }
                return LAYER;
            }
        }
        if (Bridge.OPEN_EXCHANGES.get() > 0) {
            ServerDescriber d = describer(exchange);
            RequestState held = open.get(d == null ? exchange : d.endKey(exchange));
            if (held != null && !held.hasEnded()) {
                // The server's entry again, for an exchange whose request goes on (a second dispatch,
                // an async servlet's dispatch from a thread outside it).
                s.request = held;
                s.serverDepth = 1;
                ThreadContexts.beginSegment(s, "resume");
                return LAYER;
            }
        }
        ServerDescriber d = describer(exchange);
        HttpRequestInfo info = d == null || name != null ? null : d.describeServer(exchange, redactor);
        HopTask.Inbound handedOver = s.inbound;
        s.inbound = null; // one request per hand-over: a second one in the same task did not queue
        String[] trace = TraceContexts.current(exchange);
        boolean fromWire = false;
        if (trace == null && d != null) {
            trace = TraceParent.parse(d.traceparent(head == null ? exchange : head));
            fromWire = trace != null;
        }
        String requestName = name != null ? HttpRequestInfo.serverName(name) : info == null ? boundary : info.name;
        RequestState r = requests.begin(s, RequestState.SERVER, requestName, boundary,
                info == null ? null : info.url, trace, handedOver == null ? null : handedOver.event);
        r.method = info == null ? null : info.method;
        r.describer = d;
        r.traceFromWire = fromWire;
        if (handedOver != null && handedOver.fromThread != s.thread) {
            HopEvents.serverQueue(r, handedOver, s.thread);
        }
        s.serverDepth = 1;
        if (untilEnd) {
            r.endsLater = true;
            Object key = d == null ? exchange : d.endKey(exchange);
            r.exchangeHash = System.identityHashCode(key);
            if (open.put(key, r) == null) {
                Bridge.OPEN_EXCHANGES.incrementAndGet();
            }
        }
        return r;
    }

    /**
     * Whether a server's entry that ends only at its end hook, for {@code exchange}, on a thread
     * still in the inbound request {@code current}, begins the next request rather than being a
     * layer of that one: current has ended, and the thread runs the rest of one of its tasks
     * (reactor-netty begins a connection's next pipelined request when the last one terminates, in
     * the task that wrote that one's end), or current began for another exchange of a server whose
     * exchanges are never layers of one another ({@link ServerDescriber#exchangesAreDistinct}). The
     * same exchange is always a layer of its own request (a filter chain's entries, a second dispatch).
     */
    private boolean isAnotherRequest(RequestState current, Object exchange) {
        ServerDescriber d = describer(exchange);
        if (d == null) {
            return false;
        }
        boolean sameServer = current.describer == d;
        if (sameServer && current.exchangeHash == System.identityHashCode(d.endKey(exchange))) {
            return false;
        }
        return sameServer && d.exchangesAreDistinct() || current.hasEnded();
    }

    @Override
    public void serverExit(Object token, Object exchange, Throwable thrown) {
        exit(token, exchange, exchange, thrown);
    }

    @Override
    public void serverExitResponding(Object token, Object exchange, Object response, Throwable thrown) {
        exit(token, exchange, response, thrown);
    }

    private void exit(Object token, Object exchange, Object response, Throwable thrown) {
        if (token instanceof ThreadState.SpanFrame) {
            Spans.closeSyncSpan((ThreadState.SpanFrame) token);
            return;
        }
        ThreadState s = ThreadContexts.state();
        if (token == LAYER) {
            s.serverDepth--;
            RequestState r = s.request;
            if (r != null && r.kind == RequestState.SERVER) {
                if (thrown != null) {
                    // A servlet's exception, which its container turns into a 500 outside the layer.
                    r.failedMeanwhile(thrown);
                }
                routeOf(r, exchange);
                if (!r.endsLater && continuesAfterReturn(r, exchange)) {
                    r.endsLater = true;
                }
                if (s.serverDepth == 0 && r.endsLater) {
                    // Its entry again on this thread (a second dispatch, not a task's hop): the thread is done with it.
                    requests.leaveBoundary(s, r);
                }
            }
            return;
        }
        RequestState r = (RequestState) token;
        s.serverDepth = 0;
        if (thrown != null && r.endsLater && r.describer != null && r.resumeKey == null) {
            // The server's entry threw: the server will not complete this exchange (the JDK's closes
            // the connection), so its end hook will not come.
            requests.leaveBoundary(s, r);
            serverEnd(r.describer.endKey(exchange), thrown);
            return;
        }
        routeOf(r, exchange);
        if (!r.endsLater && !continuesAfterReturn(r, exchange)) {
            ServerDescriber d = r.describer;
            int status = d == null ? -1 : d.statusCode(response, thrown);
            if (r.terminate(outcome(thrown, status), thrown, status)) {
                requests.leaveBoundary(s, r);
                r.commit();
                return;
            }
        } else if (thrown != null) {
            r.failedMeanwhile(thrown);
        }
        requests.leaveBoundary(s, r);
    }

    @Override
    public Object serverResume(Object exchange) {
        ServerDescriber d = describer(exchange);
        RequestState held = open.get(d == null ? exchange : d.endKey(exchange));
        if (held == null) {
            return null; // its request has ended, or never began (a body read after the response)
        }
        ThreadState s = ThreadContexts.state();
        RequestState current = s.request;
        if (current == held) {
            if (s.serverDepth >= 2) {
                return null;
            }
            s.serverDepth++;
            return LAYER;
        }
        if (current != null) {
            if (current.kind != RequestState.SERVER && !current.hasEnded()) {
                return null; // the thread works on another request: it stays there
            }
            requests.leaveBoundary(s, current); // the rest of another inbound request's task
        }
        s.request = held;
        s.serverDepth = 1;
        ThreadContexts.beginSegment(s, "resume");
        return LAYER;
    }

    @Override
    public void serverFailed(Object exchange, Throwable thrown) {
        RequestState r = open.get(exchange);
        if (r == null) {
            return;
        }
        if (thrown == null) {
            r.cancelledMeanwhile();
        } else {
            r.failedMeanwhile(thrown);
        }
    }

    @Override
    public void serverEnd(Object exchange, Throwable thrown) {
        RequestState r = open.remove(exchange);
        if (r == null) {
            return;
        }
        Bridge.OPEN_EXCHANGES.decrementAndGet();
        ServerDescriber d = r.describer;
        int status = d == null ? -1 : d.statusCode(exchange);
        if (thrown == null && d != null) {
            thrown = d.failure(exchange); // a handler's exception the server answered for (Undertow's 500)
        }
        String outcome = thrown != null || status >= 500 ? "error"
                : d != null && d.connectionLost(exchange) ? "cancelled" : "ok";
        ThreadState s = ThreadContexts.current();
        if (s != null && s.request == r) {
            // What the server goes on to do on this thread is no part of the request: Undertow reads the
            // connection's next request, or hands that read to its I/O thread, from inside its end.
            requests.leaveBoundary(s, r);
        }
        if (r.terminate(outcome, thrown, status)) {
            r.commit();
        }
    }

    @Override
    public void serverEndWith(Object exchange, Object response) {
        RequestState r = open.remove(exchange);
        if (r == null) {
            return;
        }
        Bridge.OPEN_EXCHANGES.decrementAndGet();
        ServerDescriber d = r.describer;
        boolean endsHere = d == null ? r.terminate("ok", null, -1)
                : r.terminate(d.outcome(response), d.cause(response), d.statusCode(response));
        ThreadState s = ThreadContexts.current();
        if (s != null && s.request == r) {
            requests.leaveBoundary(s, r);
        }
        if (endsHere) {
            r.commit();
        }
    }

    @Override
    public Object serverQueueEnter(Object task) {
        ThreadState s = ThreadContexts.current();
        if (s == null || s.request == null || !handoffs.isServerQueueTask(task)) {
            return null;
        }
        s.serverQueueing++;
        return s;
    }

    @Override
    public void serverQueueExit(Object token) {
        ((ThreadState) token).serverQueueing--;
    }

    @Override
    public void serverRoute(String route) {
        ThreadState s = ThreadContexts.current();
        RequestState r = s == null ? null : s.request;
        if (r != null && r.kind == RequestState.SERVER) {
            rename(r, route);
        }
    }

    @Override
    public void serverHandler(Object handler, Object target, Object request) {
        ThreadState s = ThreadContexts.current();
        RequestState r = s == null ? null : s.request;
        if (r == null || r.kind != RequestState.SERVER) {
            return;
        }
        for (RouteDescriber d : routeDescribers) {
            String route = d.route(handler, target, request);
            if (route != null) {
                rename(r, route);
                return;
            }
        }
    }

    private static void rename(RequestState r, String route) {
        String trimmed = HttpRequestInfo.serverName(route);
        r.name = r.method == null ? trimmed : r.method + " " + trimmed;
    }

    /** Renames r by the route its exchange's describer reads (ServerDescriber#route), if any. */
    private void routeOf(RequestState r, Object exchange) {
        ServerDescriber d = describerOf(r, exchange);
        String route = d == null ? null : d.route(exchange);
        if (route != null) {
            rename(r, route);
        }
    }

    @Override
    public Runnable wrapServerTask(Runnable task, Object executor) {
        return handoffs.serverTask(task, executor);
    }

    /**
     * An inbound request's outcome: error when its server's entry threw, the exchange failed, or the
     * server answered 5xx (what the server failed at, as OpenTelemetry's server spans say too).
     */
    static String outcome(Throwable thrown, int status) {
        return thrown != null || status >= 500 ? "error" : "ok";
    }

    /**
     * Whether the exchange goes on after its entry returned (its describer has arranged for its
     * end): then the request is kept by the exchange until it ends, for the server's entry with it
     * again on a thread outside the request to resume it (see ServerDescriber#continuesAfterReturn).
     */
    private boolean continuesAfterReturn(RequestState r, Object exchange) {
        ServerDescriber d = describerOf(r, exchange);
        if (d == null || !d.continuesAfterReturn(requests, r, exchange)) {
            return false;
        }
        Object key = d.endKey(exchange);
        r.resumeKey = key;
        if (open.put(key, r) == null) {
            Bridge.OPEN_EXCHANGES.incrementAndGet();
        }
        if (r.hasEnded()) {
            forget(r); // it ended meanwhile, on another thread, before it was kept
        }
        return true;
    }

    /** A request that continuesAfterReturn kept by its exchange has ended: its exchange no longer resumes it. */
    void forget(RequestState r) {
        Object key = r.resumeKey;
        if (key != null && open.remove(key, r)) {
            Bridge.OPEN_EXCHANGES.decrementAndGet();
        }
    }

    private ServerDescriber describerOf(RequestState r, Object exchange) {
        return exchange == null ? null : r.describer != null && r.describer.describes(exchange) ? r.describer
                : describer(exchange);
    }

    private void takeOpenTelemetrySpan(RequestState r, Object exchange) {
        r.traceFromWire = false; // looked once
        String[] trace = TraceContexts.current(exchange);
        if (trace != null) {
            r.traceId = trace[0];
            r.spanId = trace[1];
        }
    }

    private ServerDescriber describer(Object exchange) {
        if (exchange == null) {
            return null;
        }
        for (ServerDescriber d : describers) {
            if (d.describes(exchange)) {
                return d;
            }
        }
        return null;
    }
}
