package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.bootstrap.Bridge;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Inbound requests whose end a describer arranges when their entry returns (an async servlet's
 * listener): kept by their exchange until they end, so that the server's entry with the exchange
 * again, on a thread outside them (a dispatch), resumes them rather than beginning another; and
 * forgotten when they end, counted in Bridge.OPEN_EXCHANGES meanwhile. An exception out of a layer
 * (a servlet inside a container's adapter) is the request's outcome. A framework's route, in the
 * exchange or made from its matched handler, renames the request.
 */
class ServersTest {

    private final Requests requests = new Requests(List.of(), new UrlRedactor(Set.of()), 0, new Carriers());
    private final Servers servers = new Servers(requests, new Handoffs(new LibraryRules(), new Carriers()),
            new UrlRedactor(Set.of()));
    private final Async describer = new Async();
    private final ThreadState self = ThreadContexts.state();

    ServersTest() {
        servers.addDescriber(describer);
    }

    @AfterEach
    void leave() {
        self.request = null;
        self.serverDepth = 0;
    }

    @Test
    void aDispatchOutsideTheRequestResumesIt() throws Exception {
        int open = Bridge.OPEN_EXCHANGES.get();
        Exchange exchange = new Exchange();
        Object token = servers.serverEnter("test", exchange);
        RequestState r = (RequestState) token;
        exchange.async = true;
        servers.serverExit(token, exchange, null);
        assertThat(self.request).as("the first thread is done with it").isNull();
        assertThat(r.hasEnded()).isFalse();
        assertThat(Bridge.OPEN_EXCHANGES.get()).isEqualTo(open + 1);

        // The dispatch: the exchange under a wrapper, on another thread outside any request.
        Object[] resumed = new Object[2];
        onAnotherThread(() -> {
            Object again = servers.serverEnter("test", new Wrapper(exchange));
            resumed[0] = ThreadContexts.state().request;
            servers.serverExit(again, new Wrapper(exchange), null);
            resumed[1] = ThreadContexts.state().request;
        });
        assertThat(resumed[0]).as("the request, resumed").isSameAs(r);
        assertThat(resumed[1]).as("and left when the dispatch returns").isNull();
        assertThat(r.hasEnded()).isFalse();

        describer.listener.get().run(); // the async cycle completes
        assertThat(r.hasEnded()).isTrue();
        assertThat(r.statusCode).isEqualTo(202);
        assertThat(Bridge.OPEN_EXCHANGES.get()).as("forgotten when it ended").isEqualTo(open);

        // The container reuses the exchange for its next request: a new one.
        exchange.async = false;
        Object next = servers.serverEnter("test", exchange);
        assertThat(next).isInstanceOf(RequestState.class).isNotSameAs(r);
        servers.serverExit(next, exchange, null);
    }

    @Test
    void aRequestThatEndedBeforeItWasKeptIsNotKept() {
        int open = Bridge.OPEN_EXCHANGES.get();
        Exchange exchange = new Exchange();
        exchange.async = true;
        exchange.completeAtOnce = true;
        Object token = servers.serverEnter("test", exchange);
        servers.serverExit(token, exchange, null);
        assertThat(((RequestState) token).hasEnded()).isTrue();
        assertThat(Bridge.OPEN_EXCHANGES.get()).isEqualTo(open);
    }

    @Test
    void aLayersExceptionIsTheRequestsOutcome() {
        Exchange exchange = new Exchange();
        Object token = servers.serverEnter("test", exchange);
        Object layer = servers.serverEnter("layer", exchange);
        servers.serverExit(layer, exchange, new IllegalStateException("the servlet's"));
        servers.serverExit(token, exchange, null); // the container answered it
        RequestState r = (RequestState) token;
        assertThat(r.hasEnded()).isTrue();
        assertThat(r.outcome).isEqualTo("error");
        assertThat(r.error).isEqualTo(IllegalStateException.class.getName());
    }

    @Test
    void aRouteInTheExchangeRenamesTheRequest() {
        Exchange exchange = new Exchange();
        Object token = servers.serverEnter("test", exchange);
        exchange.route = "/orders/{id}";
        servers.serverExit(token, exchange, null);
        assertThat(((RequestState) token).name).isEqualTo("GET /orders/{id}");
    }

    @Test
    void aHandlersRouteRenamesTheServerRequestItIsMatchedIn() {
        servers.addRouteDescriber((handler, target, request) -> request instanceof Exchange ? "/orders/" + handler : null);
        servers.serverHandler("{id}", this, new Exchange());
        assertThat(self.request).as("outside an inbound request: nothing").isNull();

        Exchange exchange = new Exchange();
        Object token = servers.serverEnter("test", exchange);
        servers.serverHandler("{id}", this, "not the framework's request");
        assertThat(((RequestState) token).name).as("no describer knows it: the path").isEqualTo("GET /orders/1");
        servers.serverHandler("{id}", this, exchange);
        servers.serverExit(token, exchange, null);
        assertThat(((RequestState) token).name).isEqualTo("GET /orders/{id}");
    }

    private static void onAnotherThread(Runnable run) throws InterruptedException {
        Thread t = new Thread(run);
        t.start();
        t.join();
    }

    /** A server's request object. */
    static final class Exchange {
        volatile boolean async;
        volatile boolean completeAtOnce;
        volatile String route;
    }

    /** A wrapper of it, as a dispatcher passes on. */
    static final class Wrapper {
        final Exchange exchange;

        Wrapper(Exchange exchange) {
            this.exchange = exchange;
        }
    }

    /** A describer whose async exchanges end when the test runs their listener. */
    static final class Async implements ServerDescriber {
        final AtomicReference<Runnable> listener = new AtomicReference<>();

        @Override
        public boolean describes(Object exchange) {
            return exchange instanceof Exchange || exchange instanceof Wrapper;
        }

        @Override
        public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
            return HttpRequestInfo.server("GET", "/orders/1", null, redactor);
        }

        @Override
        public Object endKey(Object exchange) {
            return exchange instanceof Wrapper ? ((Wrapper) exchange).exchange : exchange;
        }

        @Override
        public String traceparent(Object exchange) {
            return null;
        }

        @Override
        public int statusCode(Object response) {
            return response instanceof Exchange ? 202 : -1;
        }

        @Override
        public String route(Object exchange) {
            return exchange instanceof Exchange ? ((Exchange) exchange).route : null;
        }

        @Override
        public boolean continuesAfterReturn(Requests requests, RequestState request, Object exchange) {
            Exchange e = (Exchange) endKey(exchange);
            if (!e.async) {
                return false;
            }
            listener.set(() -> requests.asyncTerminated(request, "ok", null, e));
            if (e.completeAtOnce) {
                listener.get().run(); // on another thread, before the entry's exit has kept it
            }
            return true;
        }
    }
}
