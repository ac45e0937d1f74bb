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
    /**
     * Requests that end when their exchange's end is reported (serverEnterUntilEnd), by exchange,
     * weakly held: an exchange dropped without an end goes with its entry. Bridge.OPEN_EXCHANGES
     * counts the entries put and not taken, so that no end report looks here while there is none.
     */
    private final Map<Object, RequestState> open = Collections.synchronizedMap(new WeakHashMap<>());

    Servers(Requests requests, Handoffs handoffs, UrlRedactor redactor) {
        this.requests = requests;
        this.handoffs = handoffs;
        this.redactor = redactor;
    }

    void addDescriber(ServerDescriber describer) {
        describers.add(describer);
        requests.addDescriber(describer); // the status of an exchange whose request ends elsewhere
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
        if (untilEnd && Bridge.OPEN_EXCHANGES.get() > 0) {
            ServerDescriber d = describer(exchange);
            RequestState held = open.get(d == null ? exchange : d.endKey(exchange));
            if (held != null) {
                // The server's entry again, for an exchange whose request goes on (a second dispatch).
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
            if (open.put(d == null ? exchange : d.endKey(exchange), r) == null) {
                Bridge.OPEN_EXCHANGES.incrementAndGet();
            }
        }
        return r;
    }

    @Override
    public void serverExit(Object token, Object exchange, Throwable thrown) {
        if (token instanceof ThreadState.SpanFrame) {
            Spans.closeSyncSpan((ThreadState.SpanFrame) token);
            return;
        }
        ThreadState s = ThreadContexts.state();
        if (token == LAYER) {
            s.serverDepth--;
            RequestState r = s.request;
            if (r != null && r.kind == RequestState.SERVER) {
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
        if (thrown != null && r.endsLater && r.describer != null) {
            // The server's entry threw: the server will not complete this exchange (the JDK's closes
            // the connection), so its end hook will not come.
            requests.leaveBoundary(s, r);
            serverEnd(r.describer.endKey(exchange), thrown);
            return;
        }
        if (!r.endsLater && !continuesAfterReturn(r, exchange)) {
            ServerDescriber d = r.describer;
            int status = d == null ? -1 : d.statusCode(exchange);
            if (r.terminate(thrown == null ? "ok" : "error", thrown, status)) {
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
    public void serverEnd(Object exchange, Throwable thrown) {
        RequestState r = open.remove(exchange);
        if (r == null) {
            return;
        }
        Bridge.OPEN_EXCHANGES.decrementAndGet();
        ServerDescriber d = r.describer;
        int status = d == null ? -1 : d.statusCode(exchange);
        if (r.terminate(thrown == null ? "ok" : "error", thrown, status)) {
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
            String trimmed = HttpRequestInfo.serverName(route);
            r.name = r.method == null ? trimmed : r.method + " " + trimmed;
        }
    }

    @Override
    public Runnable wrapServerTask(Runnable task, Object executor) {
        return handoffs.serverTask(task, executor);
    }

    private boolean continuesAfterReturn(RequestState r, Object exchange) {
        ServerDescriber d = exchange == null ? null : r.describer != null && r.describer.describes(exchange) ? r.describer
                : describer(exchange);
        return d != null && d.continuesAfterReturn(requests, r, exchange);
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
