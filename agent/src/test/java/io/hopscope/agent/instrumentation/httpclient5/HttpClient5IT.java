package io.hopscope.agent.instrumentation.httpclient5;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.ClientApps;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Apache HttpClient 5's classic execute (with a response handler) is a request boundary without
 * requests=: named by method, host and path, its query redacted, with its status, and an error for a
 * refused connection. The exchange runs on the caller: no hop, one thread. On the oldest release
 * supported and the newest tested.
 */
class HttpClient5IT {

    static final String BOUNDARY = "org.apache.hc.client5.http.classic.HttpClient#execute";

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("httpclient5", new HttpClient5Instrumentation().versions());
    }

    @ParameterizedTest(name = "{0} HttpClient {1}")
    @MethodSource("ends")
    void executeIsARequestOnTheCallersThread(String java, String version, String classPath) throws Exception {
        ClientApps.checkEach(java, classPath, "HttpClient5App", 4, BOUNDARY,
                "org.apache.hc.client5.http.HttpHostConnectException", (r, i, what) -> {
                    assertThat(r.hops).as(what).isEmpty();
                    assertThat(r.threads()).as(what).hasSize(1);
                    assertThat(r.request.getThread().getJavaName()).as(what).isEqualTo("main");
                });
    }

    /** Inside a request (a requests= method), execute is a boundary span of it, not a second request. */
    @ParameterizedTest(name = "{0} HttpClient {1}")
    @MethodSource("ends")
    void executeInsideARequestIsABoundarySpan(String java, String version, String classPath) throws Exception {
        String outer = "io.hopscope.testapps.HttpClient5App#nested";
        List<Requests.Request> requests = ClientApps.run(java, classPath, "HttpClient5App", 1, ",requests=" + outer, 1);
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
