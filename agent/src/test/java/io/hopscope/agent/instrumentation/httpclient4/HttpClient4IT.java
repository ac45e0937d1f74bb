package io.hopscope.agent.instrumentation.httpclient4;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.ClientApps;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Requests;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Apache HttpClient 4's execute (plain and with a ResponseHandler, which nests the plain one) is one
 * request boundary without requests=: named by method, host and path, its query redacted, with its
 * status, and an error for a refused connection. The exchange runs on the caller: no hop, one thread.
 */
class HttpClient4IT {

    static final String BOUNDARY = "org.apache.http.client.HttpClient#execute";

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void executeIsARequestOnTheCallersThread(String java) throws Exception {
        List<Requests.Request> requests = ClientApps.run(java, "HttpClient4App", 4);
        for (int i = 0; i < requests.size(); i++) {
            Requests.Request r = requests.get(i);
            String what = Handovers.jdk(java) + " request " + i + " " + ClientApps.describe(r);
            if (i < 4) {
                ClientApps.assertHello(r, BOUNDARY);
            } else {
                ClientApps.assertRefused(r, BOUNDARY);
                assertThat(r.request.getString("error")).isEqualTo("org.apache.http.conn.HttpHostConnectException");
            }
            assertThat(r.hops).as(what).isEmpty();
            // No boundary span: the handler variant's execute and the plain one are one boundary.
            assertThat(r.spans).as(what).isEmpty();
            assertThat(r.threads()).as(what).hasSize(1);
            assertThat(r.request.getThread().getJavaName()).as(what).isEqualTo("main");
        }
    }
}
