package io.hopscope.agent.instrumentation.httpclient5async;

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
 * Apache HttpClient 5's async execute is a request boundary without requests= that ends when the
 * exchange completes on the I/O thread, with a callback or without one (the caller in the Future's
 * get). An exchange the caller queues on a pooled connection hands over to the I/O thread: each of
 * that connection's events it handles in the request is a handoff from the caller. The first
 * exchange (a new connection, made and queued by the I/O thread) and a refused one show no hop. On
 * the oldest release supported and the newest tested.
 */
class HttpAsyncClient5IT {

    static final String BOUNDARY = "org.apache.hc.client5.http.async.HttpAsyncClient#execute";
    static final String IO_THREAD = "httpclient-dispatch-1";

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("httpclient5-async", new HttpAsyncClient5Instrumentation().versions());
    }

    @ParameterizedTest(name = "{0} HttpClient {1}")
    @MethodSource("ends")
    void executeEndsOnTheIoThreadAndPooledExchangesHandOffToIt(String java, String version, String classPath)
            throws Exception {
        ClientApps.checkEach(java, classPath, "HttpAsyncClient5App", 4, BOUNDARY, "org.apache.hc.client5.http.HttpHostConnectException",
                HttpAsyncClient5IT::endsOnTheIoThread);
    }

    /** The first exchange (a new connection) and the refused one: no hop; the pooled ones: handoffs. */
    private static void endsOnTheIoThread(Requests.Request r, int i, String what) {
        // Ended where the exchange completed, callback or not.
        assertThat(r.request.getThread().getJavaName()).as(what).isEqualTo(IO_THREAD);
        if (i == 0 || i == 4) {
            assertThat(r.hops).as(what).isEmpty();
        } else {
            assertThat(r.hops).as(what).isNotEmpty();
            for (RecordedEvent h : r.hops) {
                assertThat(h.getString("kind")).as(what).isEqualTo("handoff");
                assertThat(Requests.threadName(h, "fromThread")).as(what).isEqualTo("main");
                assertThat(Requests.threadName(h, "toThread")).as(what).isEqualTo(IO_THREAD);
                assertThat(h.getString("via")).as(what).isEqualTo("org.apache.hc.core5.reactor.IOSessionImpl");
            }
            assertThat(r.segments).as(what).filteredOn(s -> s.getThread().getJavaName().equals(IO_THREAD))
                    .hasSize(r.hops.size()).allMatch(s -> s.getString("kind").equals("task"));
            assertThat(r.threads()).as(what).hasSize(2);
        }
    }
}
