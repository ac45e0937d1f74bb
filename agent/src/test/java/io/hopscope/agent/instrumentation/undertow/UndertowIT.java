package io.hopscope.agent.instrumentation.undertow;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.ServerChecks;
import io.hopscope.testapps.servers.ServerStudy;
import io.hopscope.testapps.servers.UndertowApp;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Undertow with two worker threads, on the oldest and the newest release of its range: each
 * exchange is an inbound request begun on the XNIO I/O thread, its dispatch to a worker its first
 * hop (the server's queue), ending when the exchange completes (ServerChecks); the failing handler's
 * exception, which Undertow answers with a 500, is its error. Then a handler that answers on the I/O
 * thread (one thread, no hop), and a client that resets the connection while its response is being
 * written (the request ends, cancelled; the app waited for every exchange's completion).
 */
public class UndertowIT {

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("undertow", new UndertowInstrumentation().versions());
    }

    @ParameterizedTest(name = "Undertow {1} on {0}")
    @MethodSource("ends")
    void anExchangeIsARequestFromTheIoThreadsDispatchToItsEnd(String java, String version, String classPath)
            throws Exception {
        checkCases(ServerChecks.check(java, expected(classPath)).byTrace, "Undertow " + version + " on " + java);
    }

    /** The study on the newest Undertow tested. */
    public static ServerChecks.Expected newest() {
        return expected(LibraryVersions.classPath(SupportedVersions.module("undertow",
                new UndertowInstrumentation().versions().newest())));
    }

    /**
     * The study on Undertow's libraries at {@code classPath}. Its worker's threads are numbered by
     * the worker (XNIO-1 for the first one the JVM made): each run of the study makes one.
     */
    public static ServerChecks.Expected expected(String classPath) {
        return new ServerChecks.Expected("UndertowApp", UndertowInstrumentation.BOUNDARY)
                .classPath(classPath)
                .queue(IO_THREADS, "XNIO-\\d+ task-");
    }

    private static final String IO_THREADS = "XNIO-\\d+ I/O-";

    /** The app's cases besides the study: its requests by trace id ({@code what} names the run). */
    public static void checkCases(Map<String, Requests.Request> byTrace, String what) {
        // The dispatch named no executor: the worker's own hook wrapped the task, naming the worker.
        Requests.Request order = byTrace.get(traceId(1));
        assertThat(order.hops.get(0).getString("via")).as(what + ": the hand-over's executor").startsWith("org.xnio.");

        Requests.Request nonBlocking = byTrace.get(traceId(UndertowApp.NON_BLOCKING_TRACE));
        assertThat(nonBlocking).as(what + ": the non-blocking handler's request").isNotNull();
        RecordedEvent request = nonBlocking.request;
        assertThat(request.getString("name")).isEqualTo("GET " + UndertowApp.NON_BLOCKING);
        assertThat(request.getString("outcome")).isEqualTo("ok");
        assertThat(request.getInt("statusCode")).isEqualTo(200);
        assertThat(nonBlocking.hops).as(what + ": no hop, no queue").isEmpty();
        assertThat(nonBlocking.segments).as(what + ": one thread, the I/O thread's").isNotEmpty()
                .allSatisfy(s -> assertThat(s.getThread().getJavaName()).isEqualTo(Requests.startThreadName(request)))
                .allSatisfy(s -> assertThat(s.getThread().getJavaName()).containsPattern("^" + IO_THREADS));

        Requests.Request gone = byTrace.get(traceId(UndertowApp.DISCONNECT_TRACE));
        assertThat(gone).as(what + ": the request whose client went away mid-response").isNotNull();
        assertThat(gone.request.getString("name")).isEqualTo("GET " + UndertowApp.DISCONNECT);
        // Undertow completes the exchange when the failed write closes the connection, before the write's
        // IOException reaches the handler: the client went away, the request is cancelled.
        assertThat(gone.request.getString("outcome")).as(what).isEqualTo("cancelled");
        assertThat(gone.request.getString("error")).as(what).isNull();
        assertThat(gone.request.getInt("statusCode")).as(what + ": the status its response began with").isEqualTo(200);
        assertThat(gone.hops.get(0).getBoolean("serverQueue")).as(what + ": dispatched, like the study's").isTrue();
    }

    private static String traceId(int n) {
        return ServerStudy.traceparent(n).substring(3, 35);
    }
}
