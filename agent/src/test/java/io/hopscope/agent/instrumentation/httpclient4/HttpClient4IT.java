package io.hopscope.agent.instrumentation.httpclient4;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.ClientApps;
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
        ClientApps.checkEach(java, "HttpClient4App", 4, BOUNDARY, "org.apache.http.conn.HttpHostConnectException",
                (r, i, what) -> {
                    assertThat(r.hops).as(what).isEmpty();
                    // No boundary span: the handler variant's execute and the plain one are one boundary.
                    assertThat(r.spans).as(what).isEmpty();
                    assertThat(r.threads()).as(what).hasSize(1);
                    assertThat(r.request.getThread().getJavaName()).as(what).isEqualTo("main");
                });
    }
}
