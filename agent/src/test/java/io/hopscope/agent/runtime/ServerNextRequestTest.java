package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Inbound requests that end at their server's end hook (serverEnterUntilEnd): which entry on a
 * thread still in one of them begins the next request, which resumes an open one, and the outcome
 * an exchange's failure or its client's disconnection leaves for the end.
 */
class ServerNextRequestTest {

    private final UrlRedactor redactor = new UrlRedactor(Set.of());
    private final Carriers carriers = new Carriers();
    private final Requests requests = new Requests(List.of(), redactor, 1, carriers);
    private final Servers servers = new Servers(requests, new Handoffs(new LibraryRules(), carriers), redactor);
    private final ThreadState self = ThreadContexts.state();

    /** An exchange of a test server: its path and the status it answers. */
    static final class Exchange {
        final String path;
        final boolean distinct;
        int status = 200;

        Exchange(String path, boolean distinct) {
            this.path = path;
            this.distinct = distinct;
        }
    }

    /** The test server's describer; {@code distinct}: whether its exchanges are never layers of one another. */
    static final class Describer implements ServerDescriber {
        final boolean distinct;

        Describer(boolean distinct) {
            this.distinct = distinct;
        }

        @Override
        public boolean describes(Object exchange) {
            return exchange instanceof Exchange && ((Exchange) exchange).distinct == distinct;
        }

        @Override
        public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
            return describes(exchange) ? HttpRequestInfo.server("GET", ((Exchange) exchange).path, null, redactor) : null;
        }

        @Override
        public String traceparent(Object exchange) {
            return null;
        }

        @Override
        public boolean exchangesAreDistinct() {
            return distinct;
        }

        @Override
        public int statusCode(Object response) {
            return describes(response) ? ((Exchange) response).status : -1;
        }
    }

    ServerNextRequestTest() {
        servers.addDescriber(new Describer(true));
        servers.addDescriber(new Describer(false));
    }

    @AfterEach
    void leave() {
        ThreadContexts.leaveRequest(self);
        self.serverDepth = 0;
    }

    @Test
    void anEntryOnAThreadStillInAnEndedRequestBeginsTheNextOne() {
        for (boolean distinct : new boolean[] {true, false}) {
            Exchange first = new Exchange("/first", distinct);
            RequestState one = (RequestState) servers.serverEnterUntilEnd("test", first);
            servers.serverEnd(first, null); // ended on this thread, which leaves it (what it does next is not its)
            assertThat(self.request).isNull();
            assertThat(one.hasEnded()).isTrue();
            Exchange next = new Exchange("/next", distinct);
            Object token = servers.serverEnterUntilEnd("test", next);
            assertThat(token).as("distinct " + distinct).isInstanceOf(RequestState.class).isNotSameAs(one);
            assertThat(self.request.name).isEqualTo("GET /next");
            servers.serverExit(token, next, null);
            assertThat(self.request).isNull();
            servers.serverEnd(next, null);
        }
    }

    @Test
    void anotherExchangeIsTheNextRequestOnlyWhereTheServersExchangesAreDistinct() {
        Exchange first = new Exchange("/first", true);
        RequestState one = (RequestState) servers.serverEnterUntilEnd("test", first);
        Exchange next = new Exchange("/next", true);
        Object token = servers.serverEnterUntilEnd("test", next);
        assertThat(token).isInstanceOf(RequestState.class).isNotSameAs(one);
        servers.serverExit(token, next, null);
        servers.serverEnd(next, null);
        servers.serverEnd(first, null);

        Exchange layered = new Exchange("/layered", false);
        RequestState outer = (RequestState) servers.serverEnterUntilEnd("test", layered);
        Object inner = servers.serverEnterUntilEnd("test", new Exchange("/wrapper", false)); // a filter's wrapper
        assertThat(inner).isNotInstanceOf(RequestState.class);
        assertThat(self.request).isSameAs(outer);
        servers.serverEnd(layered, null);
    }

    @Test
    void theSameExchangeIsALayerOfItsRequest() {
        Exchange exchange = new Exchange("/same", true);
        RequestState r = (RequestState) servers.serverEnterUntilEnd("test", exchange);
        Object again = servers.serverEnterUntilEnd("test", exchange);
        assertThat(again).isNotNull().isNotInstanceOf(RequestState.class);
        servers.serverExit(again, exchange, null);
        assertThat(self.request).isSameAs(r);
        servers.serverExit(r, exchange, null);
        assertThat(self.request).isNull();
        servers.serverEnd(exchange, null);
    }

    @Test
    void onlyAnOpenExchangeIsResumed() {
        Exchange exchange = new Exchange("/body", true);
        assertThat(servers.serverResume(exchange)).as("never begun").isNull();
        RequestState r = (RequestState) servers.serverEnterUntilEnd("test", exchange);
        servers.serverExit(r, exchange, null);
        assertThat(self.request).as("the entry returned: the thread is done with it until its end").isNull();

        Object resumed = servers.serverResume(exchange);
        assertThat(resumed).isNotNull();
        assertThat(self.request).isSameAs(r);
        servers.serverExit(resumed, exchange, null);
        assertThat(self.request).isNull();

        servers.serverEnd(exchange, null);
        assertThat(servers.serverResume(exchange)).as("ended").isNull();
        assertThat(self.request).isNull();
    }

    @Test
    void aFailureOrADisconnectionIsTheOutcomeAtTheEnd() {
        assertThat(endedAfter(null, false, 200)).isEqualTo("ok");
        assertThat(endedAfter(null, true, 200)).isEqualTo("cancelled");
        assertThat(endedAfter(new IllegalStateException(), false, 500)).isEqualTo("error");
        assertThat(endedAfter(new IllegalStateException(), true, 500)).isEqualTo("error");
        assertThat(endedAfter(null, false, 503)).as("a 5xx answer").isEqualTo("error");
    }

    /** An exchange's request, failed with {@code thrown} and/or disconnected, ended answering {@code status}. */
    private String endedAfter(Throwable thrown, boolean disconnected, int status) {
        Exchange exchange = new Exchange("/outcome", true);
        RequestState r = (RequestState) servers.serverEnterUntilEnd("test", exchange);
        servers.serverExit(r, exchange, null);
        if (disconnected) {
            servers.serverFailed(exchange, null);
        }
        if (thrown != null) {
            servers.serverFailed(exchange, thrown);
        }
        exchange.status = status;
        servers.serverEnd(exchange, null);
        assertThat(r.hasEnded()).isTrue();
        assertThat(r.statusCode).isEqualTo(status);
        assertThat(r.error).isEqualTo(thrown == null ? null : thrown.getClass().getName());
        return r.outcome;
    }
}
