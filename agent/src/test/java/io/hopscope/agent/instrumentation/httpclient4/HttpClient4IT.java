package io.hopscope.agent.instrumentation.httpclient4;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.ClientApps;
import io.hopscope.agent.testing.LibraryVersions;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Apache HttpClient 4's execute (plain and with a ResponseHandler, which nests the plain one) is one
 * request boundary without requests=: named by method, host and path, its query redacted, with its
 * status, and an error for a refused connection. The exchange runs on the caller: no hop, one thread.
 * On the oldest release supported and the newest.
 */
class HttpClient4IT {

    static final String BOUNDARY = "org.apache.http.client.HttpClient#execute";

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("httpclient4", new HttpClient4Instrumentation().versions());
    }

    @ParameterizedTest(name = "{0} HttpClient {1}")
    @MethodSource("ends")
    void executeIsARequestOnTheCallersThread(String java, String version, String classPath) throws Exception {
        ClientApps.checkEach(java, classPath, "HttpClient4App", 4, BOUNDARY, "org.apache.http.conn.HttpHostConnectException",
                (r, i, what) -> {
                    assertThat(r.hops).as(what).isEmpty();
                    // No boundary span: the handler variant's execute and the plain one are one boundary.
                    assertThat(r.spans).as(what).isEmpty();
                    assertThat(r.threads()).as(what).hasSize(1);
                    assertThat(r.request.getThread().getJavaName()).as(what).isEqualTo("main");
                });
    }
}
