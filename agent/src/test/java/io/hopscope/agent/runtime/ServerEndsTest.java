package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The end of a request that ends with its exchange (serverEnterUntilEnd, then serverEnd): its error
 * is the one the server caught from the handler when the end hook reports none (Undertow answers
 * 500 itself); it is cancelled when its connection closed under it (the client went away); and the
 * thread that ends it leaves it, so that what the server does next there (read the connection's next
 * request) begins a request of its own.
 */
class ServerEndsTest {

    private final Carriers carriers = new Carriers();
    private final Handoffs handoffs = new Handoffs(new LibraryRules(), carriers);
    private final UrlRedactor redactor = new UrlRedactor(Set.of());
    private final Requests requests = new Requests(List.of(), redactor, 1, carriers);
    private final Servers servers = new Servers(requests, handoffs, redactor);
    private final ThreadState self = ThreadContexts.state();

    @AfterEach
    void leave() {
        self.request = null;
        self.serverDepth = 0;
    }

    @Test
    void theHandlersExceptionTheServerAnsweredForIsTheRequestsError() {
        servers.addDescriber(new Describer(new IllegalStateException("handler"), 500));
        Exchange exchange = new Exchange("/fail");
        RequestState r = (RequestState) servers.serverEnterUntilEnd("boundary", exchange);
        servers.serverExit(r, exchange, null); // the server's entry caught it: returns normally
        servers.serverEnd(exchange, null);
        assertThat(r.hasEnded()).isTrue();
        assertThat(r.outcome).isEqualTo("error");
        assertThat(r.error).isEqualTo(IllegalStateException.class.getName());
        assertThat(r.statusCode).isEqualTo(500);
    }

    @Test
    void anErrorTheEndHookReportsComesFirst() {
        servers.addDescriber(new Describer(new IllegalStateException("handler"), 500));
        Exchange exchange = new Exchange("/fail");
        RequestState r = (RequestState) servers.serverEnterUntilEnd("boundary", exchange);
        servers.serverExit(r, exchange, null);
        servers.serverEnd(exchange, new java.io.IOException("reset"));
        assertThat(r.error).isEqualTo(java.io.IOException.class.getName());
    }

    @Test
    void withoutAnExceptionTheRequestIsOk() {
        servers.addDescriber(new Describer(null, 200));
        Exchange exchange = new Exchange("/ok");
        RequestState r = (RequestState) servers.serverEnterUntilEnd("boundary", exchange);
        servers.serverExit(r, exchange, null);
        servers.serverEnd(exchange, null);
        assertThat(r.outcome).isEqualTo("ok");
        assertThat(r.error).isNull();
    }

    @Test
    void anExchangeEndedByItsConnectionClosingIsCancelled() {
        Describer describer = new Describer(null, 200);
        describer.connectionLost = true;
        servers.addDescriber(describer);
        Exchange exchange = new Exchange("/gone");
        RequestState r = (RequestState) servers.serverEnterUntilEnd("boundary", exchange);
        servers.serverEnd(exchange, null); // the client reset the connection under the handler's write
        servers.serverExit(r, exchange, null);
        assertThat(r.outcome).isEqualTo("cancelled");
        assertThat(r.error).isNull();
        assertThat(r.statusCode).as("the status its response began with").isEqualTo(200);
    }

    @Test
    void aFailureIsMoreThanTheConnectionClosing() {
        Describer describer = new Describer(new IllegalStateException("handler"), 500);
        describer.connectionLost = true;
        servers.addDescriber(describer);
        Exchange exchange = new Exchange("/fail");
        RequestState r = (RequestState) servers.serverEnterUntilEnd("boundary", exchange);
        servers.serverExit(r, exchange, null);
        servers.serverEnd(exchange, null);
        assertThat(r.outcome).isEqualTo("error");
    }

    @Test
    void theThreadThatEndsTheRequestLeavesIt() {
        servers.addDescriber(new Describer(null, 200));
        Exchange first = new Exchange("/first");
        RequestState r = (RequestState) servers.serverEnterUntilEnd("boundary", first);
        servers.serverEnd(first, null); // inside its entry, as Undertow completes an exchange answered on its thread
        assertThat(self.request).as("the thread after the end").isNull();
        // The server reads the connection's next request from inside that end: a request of its own.
        Exchange next = new Exchange("/next");
        Object nextToken = servers.serverEnterUntilEnd("boundary", next);
        assertThat(nextToken).isInstanceOf(RequestState.class).isNotSameAs(r);
        assertThat(((RequestState) nextToken).name).isEqualTo("GET /next");
        servers.serverExit(nextToken, next, null);
        servers.serverEnd(next, null);
        servers.serverExit(r, first, null);
        assertThat(self.request).isNull();
        assertThat(r.hasEnded()).isTrue();
    }

    /** A server's exchange. */
    private static final class Exchange {
        final String path;

        Exchange(String path) {
            this.path = path;
        }
    }

    /** Its describer: every exchange caught {@code failure} (or none), answered {@code status}, and lost its connection or not. */
    private static final class Describer implements ServerDescriber {
        private final Throwable failure;
        private final int status;
        boolean connectionLost;

        Describer(Throwable failure, int status) {
            this.failure = failure;
            this.status = status;
        }

        @Override
        public boolean describes(Object exchange) {
            return exchange instanceof Exchange;
        }

        @Override
        public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
            return HttpRequestInfo.server("GET", ((Exchange) exchange).path, null, redactor);
        }

        @Override
        public String traceparent(Object exchange) {
            return null;
        }

        @Override
        public Throwable failure(Object exchange) {
            return failure;
        }

        @Override
        public boolean connectionLost(Object exchange) {
            return connectionLost;
        }

        @Override
        public int statusCode(Object response) {
            return response instanceof Exchange ? status : -1;
        }
    }
}
