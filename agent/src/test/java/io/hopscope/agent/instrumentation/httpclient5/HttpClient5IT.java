package io.hopscope.agent.instrumentation.httpclient5;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.ClientApps;
import io.hopscope.agent.testing.Requests;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Apache HttpClient 5's classic execute (with a response handler) is a request boundary without
 * requests=: named by method, host and path, its query redacted, with its status, and an error for a
 * refused connection. The exchange runs on the caller: no hop, one thread.
 */
class HttpClient5IT {

    static final String BOUNDARY = "org.apache.hc.client5.http.classic.HttpClient#execute";

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void executeIsARequestOnTheCallersThread(String java) throws Exception {
        ClientApps.checkEach(java, "HttpClient5App", 4, BOUNDARY, "org.apache.hc.client5.http.HttpHostConnectException",
                (r, i, what) -> {
                    assertThat(r.hops).as(what).isEmpty();
                    assertThat(r.threads()).as(what).hasSize(1);
                    assertThat(r.request.getThread().getJavaName()).as(what).isEqualTo("main");
                });
    }

    /** Inside a request (a requests= method), execute is a boundary span of it, not a second request. */
    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void executeInsideARequestIsABoundarySpan(String java) throws Exception {
        String outer = "io.hopscope.testapps.HttpClient5App#nested";
        List<Requests.Request> requests = ClientApps.run(java, "HttpClient5App", 1, ",requests=" + outer, 1);
        assertThat(requests).extracting(r -> r.request.getString("boundary"))
                .containsExactly(BOUNDARY, BOUNDARY, outer);
        Requests.Request nested = requests.get(2);
        assertThat(nested.request.getString("name")).isEqualTo(outer);
        assertThat(nested.request.getString("outcome")).isEqualTo("ok");
        assertThat(nested.spans).extracting(s -> s.getString("kind") + " " + s.getString("name"))
                .containsExactly("boundary " + BOUNDARY);
        assertThat(nested.hops).isEmpty();
    }
}
