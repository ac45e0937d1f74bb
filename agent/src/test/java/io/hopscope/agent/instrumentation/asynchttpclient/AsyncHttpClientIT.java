package io.hopscope.agent.instrumentation.asynchttpclient;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.ClientApps;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * AsyncHttpClient's executeRequest is a request boundary without requests= that ends when its
 * ListenableFuture completes. The caller's write (or a new connection's registration) is a task on
 * the Netty event loop: handoffs from the caller to the loop, which reads the response in the
 * request (the loop's task segments). Where the request ends depends on whether the response was
 * there before executeRequest returned (the caller) or not (the loop): not asserted. On the oldest
 * release supported (2.0.25, on Netty 4.0) and the newest tested (3.0, on Netty 4.2), each on the
 * Netty it asks for.
 */
class AsyncHttpClientIT {

    static final String BOUNDARY = "org.asynchttpclient.AsyncHttpClient#executeRequest";
    static final String LOOP = "ahc-io-1-1";

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("async-http-client", new AsyncHttpClientInstrumentation().versions());
    }

    @ParameterizedTest(name = "{0} AsyncHttpClient {1}")
    @MethodSource("ends")
    void executeRequestHandsOffToTheEventLoop(String java, String version, String classPath) throws Exception {
        ClientApps.checkEach(java, classPath, "AsyncHttpClientApp", 4, BOUNDARY, "java.net.ConnectException", (r, i, what) -> {
            assertThat(r.request.getThread().getJavaName()).as(what).isIn("main", LOOP);
            assertThat(r.hops).as(what).isNotEmpty();
            for (RecordedEvent h : r.hops) {
                assertThat(h.getString("kind")).as(what).isEqualTo("handoff");
                assertThat(Requests.threadName(h, "fromThread")).as(what).isEqualTo("main");
                assertThat(Requests.threadName(h, "toThread")).as(what).isEqualTo(LOOP);
                assertThat(h.getString("via")).as(what).isEqualTo("io.netty.channel.nio.NioEventLoop");
            }
            assertThat(r.segments).as(what).filteredOn(s -> s.getThread().getJavaName().equals(LOOP))
                    .isNotEmpty().allMatch(s -> s.getString("kind").equals("task"));
            assertThat(r.threads()).as(what).hasSize(2);
        });
    }
}
