package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.bootstrap.Bridge;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An RPC server's calls (gRPC's shape): begun from the parts the server's entry is given (the
 * call's name, the headers its traceparent is read from, the stream its end is keyed on), ended with
 * the response the server reports (its status code, outcome and error as the describer reads them),
 * the thread that ends it leaving it; and a server's queueing in an executor of its own, whose
 * hand-over to the server's executor is then a server-queue one.
 */
class ServerCallsTest {

    private final LibraryRules rules = new LibraryRules();
    private final Carriers carriers = new Carriers();
    private final Handoffs handoffs = new Handoffs(rules, carriers);
    private final UrlRedactor redactor = new UrlRedactor(Set.of());
    private final Requests requests = new Requests(List.of(), redactor, 1, carriers);
    private final Servers servers = new Servers(requests, handoffs, redactor);
    private final ThreadState self = ThreadContexts.state();
    private int openBefore;

    @BeforeEach
    void describeCalls() {
        openBefore = Bridge.OPEN_EXCHANGES.get();
        servers.addDescriber(new CallDescriber());
        rules.addServerQueueTask(ServerTask.class.getName());
    }

    @AfterEach
    void leave() {
        self.request = null;
        self.serverDepth = 0;
    }

    @Test
    void aCallBeginsNamedByItsEntryWithTheTraceparentOfItsHeadersAndEndsWithItsResponse() {
        Call call = new Call();
        Object token = servers.serverEnterCall("Server#streamCreated", call, "orders.Orders/Get",
                "00-0000000000000000000000000000002a-000000000000012a-01");
        assertThat(token).isInstanceOf(RequestState.class);
        RequestState r = (RequestState) token;
        assertThat(r.name).isEqualTo("orders.Orders/Get");
        assertThat(r.traceId).isEqualTo("0000000000000000000000000000002a");
        assertThat(r.spanId).isEqualTo("000000000000012a");
        assertThat(self.request).isSameAs(r);
        servers.serverExit(token, call, null);
        assertThat(self.request).as("the entry returned: the call goes on").isNull();
        assertThat(r.hasEnded()).isFalse();
        assertThat(Bridge.OPEN_EXCHANGES.get()).isEqualTo(openBefore + 1);

        servers.serverEndWith(call.state, 2);
        assertThat(r.hasEnded()).isTrue();
        assertThat(r.statusCode).isEqualTo(2);
        assertThat(r.outcome).isEqualTo("error");
        assertThat(r.error).isEqualTo(IllegalStateException.class.getName());
        assertThat(Bridge.OPEN_EXCHANGES.get()).isEqualTo(openBefore);
        servers.serverEndWith(call.state, 0);
        assertThat(r.outcome).as("a second report of the end").isEqualTo("error");
    }

    @Test
    void aCancelledCallEndsCancelledAndTheThreadThatEndsItLeavesIt() {
        Call call = new Call();
        RequestState r = (RequestState) servers.serverEnterCall("Server#streamCreated", call, "orders.Orders/Watch", null);
        assertThat(r.traceId).isNull();
        servers.serverEndWith(call.state, 1);
        assertThat(r.outcome).isEqualTo("cancelled");
        assertThat(r.statusCode).isEqualTo(1);
        assertThat(r.error).isNull();
        assertThat(self.request).as("what follows on the thread is no part of the ended call").isNull();
    }

    @Test
    void aCallNoDescriberKnowsBeginsNoRequest() {
        assertThat(servers.serverEnterCall("Server#streamCreated", new Object(), "orders.Orders/Get", null)).isNull();
        assertThat(self.request).isNull();
    }

    @Test
    void theHandOverAServersQueueingCausesIsAServerQueueOne() {
        self.request = new RequestState(7, RequestState.SERVER, "orders.Orders/Get", "test", null,
                Thread.currentThread(), false, null);
        assertThat(servers.serverQueueEnter(new OtherTask())).as("another task's queueing").isNull();
        Object token = servers.serverQueueEnter(new ServerTask());
        assertThat(token).isNotNull();
        Runnable serializing = () -> { };
        Runnable handedOver = handoffs.wrapRunnable(serializing, null);
        servers.serverQueueExit(token);
        Runnable later = handoffs.wrapRunnable(serializing, null);
        assertThat(((HopTask) handedOver).serverQueue).as("handed over while the server queued its task").isTrue();
        assertThat(((HopTask) later).serverQueue).as("handed over after").isFalse();
        assertThat(self.serverQueueing).isZero();
        Object wrappedTask = handoffs.wrapRunnable(new ServerTask(), null);
        Object again = servers.serverQueueEnter(wrappedTask);
        assertThat(again).as("a server task already wrapped").isNotNull();
        servers.serverQueueExit(again);
        self.request = null;
        assertThat(servers.serverQueueEnter(new ServerTask())).as("outside a request").isNull();
    }

    /** A call's stream: its end is reported with its state, as gRPC's transport state. */
    static final class Call {
        final Object state = new Object();
    }

    static final class ServerTask implements Runnable {
        @Override
        public void run() {
        }
    }

    static final class OtherTask implements Runnable {
        @Override
        public void run() {
        }
    }

    /** Statuses are Integers: 0 ok, 1 cancelled, anything else an error (2 with a cause). */
    static final class CallDescriber implements ServerDescriber {
        @Override
        public boolean describes(Object exchange) {
            return exchange instanceof Call;
        }

        @Override
        public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
            throw new AssertionError("a call is named by its entry");
        }

        @Override
        public String traceparent(Object head) {
            return head instanceof String ? (String) head : null;
        }

        @Override
        public Object endKey(Object exchange) {
            return exchange instanceof Call ? ((Call) exchange).state : exchange;
        }

        @Override
        public int statusCode(Object response) {
            return response instanceof Integer ? (Integer) response : -1;
        }

        @Override
        public String outcome(Object response) {
            return Integer.valueOf(0).equals(response) ? "ok" : Integer.valueOf(1).equals(response) ? "cancelled" : "error";
        }

        @Override
        public Throwable cause(Object response) {
            return Integer.valueOf(2).equals(response) ? new IllegalStateException("status 2") : null;
        }
    }
}
