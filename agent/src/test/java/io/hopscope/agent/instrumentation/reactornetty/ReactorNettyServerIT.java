package io.hopscope.agent.instrumentation.reactornetty;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.ServerChecks;
import io.hopscope.testapps.servers.ReactorNettyServerApp;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * reactor-netty's HttpServer, routed by path (ReactorNettyServerApp), on the oldest and the newest
 * tested reactor-netty and both JDKs: the study (ServerChecks), with no server queue (the loop that
 * reads a request runs its handler, which begins it there); then a streaming response that ends
 * with its last chunk, a client that disconnects mid-response, and two pipelined requests, each
 * its own request.
 */
public class ReactorNettyServerIT {

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("reactor-netty-server", new ReactorNettyServerInstrumentation().versions());
    }

    @ParameterizedTest(name = "reactor-netty {1} on {0}")
    @MethodSource("ends")
    void anExchangeIsARequestFromItsHeadToItsLastWrite(String java, String version, String classPath) throws Exception {
        checkCases(ServerChecks.check(java, expected(classPath)).byTrace, "reactor-netty " + version + " on " + java);
    }

    /** The study on the newest reactor-netty tested. */
    public static ServerChecks.Expected newest() {
        return expected(LibraryVersions.classPath(SupportedVersions.module("reactor-netty-server",
                new ReactorNettyServerInstrumentation().versions().newest())));
    }

    /** The study on reactor-netty's libraries at {@code classPath}. */
    public static ServerChecks.Expected expected(String classPath) {
        return new ServerChecks.Expected("ReactorNettyServerApp", ReactorNettyServerInstrumentation.BOUNDARY)
                .classPath(classPath).queue(null, "study-loop");
    }

    /** The app's cases besides the study, and where its orders began: its requests by trace id. */
    public static void checkCases(Map<String, Requests.Request> byTrace, String what) {
        for (Requests.Request order : byTrace.values()) {
            if (order.request.getString("name").startsWith("GET /orders/")) {
                assertThat(firstSegmentThread(order)).as(what + ": begun on the loop that read it").startsWith("study-loop");
            }
        }

        // A streamed response ends when its last chunk is written: CHUNKS chunks CHUNK_MILLIS apart,
        // the first one that long after the handler returned its Flux.
        Requests.Request stream = byTrace.get(traceId(ReactorNettyServerApp.STREAM));
        assertThat(stream).as(what + ": the streaming request").isNotNull();
        assertThat(stream.request.getString("name")).isEqualTo("GET /stream");
        assertThat(stream.request.getString("outcome")).isEqualTo("ok");
        assertThat(stream.request.getInt("statusCode")).isEqualTo(200);
        assertThat(stream.request.getDuration()).as(what + ": the stream's duration, to its last chunk")
                .isGreaterThanOrEqualTo(Duration.ofMillis(ReactorNettyServerApp.CHUNKS * ReactorNettyServerApp.CHUNK_MILLIS));
        assertThat(stream.request.getThread("eventThread").getJavaName()).as(what + ": ended on the loop that wrote it")
                .startsWith("study-loop");

        // The client that went away: its request ended (ServerChecks: every request did), not ok.
        Requests.Request gone = byTrace.get(traceId(ReactorNettyServerApp.DISCONNECT));
        assertThat(gone).as(what + ": the disconnected request").isNotNull();
        assertThat(gone.request.getString("name")).isEqualTo("GET /endless");
        assertThat(gone.request.getString("outcome")).as(what + ": the disconnected request's outcome")
                .isIn("cancelled", "error");

        // Pipelined: the second request is begun by the task that ended the first, still in it.
        Requests.Request first = byTrace.get(traceId(ReactorNettyServerApp.PIPELINED_FIRST));
        Requests.Request second = byTrace.get(traceId(ReactorNettyServerApp.PIPELINED_FIRST + 1));
        assertThat(first).as(what + ": the first pipelined request").isNotNull();
        assertThat(second).as(what + ": the second pipelined request, a request of its own").isNotNull();
        assertThat(first.request.getString("name")).isEqualTo("GET /slow/1");
        assertThat(second.request.getString("name")).isEqualTo("GET /slow/2");
        for (Requests.Request r : new Requests.Request[] {first, second}) {
            assertThat(r.request.getString("outcome")).as(what).isEqualTo("ok");
            assertThat(r.request.getInt("statusCode")).as(what).isEqualTo(200);
            assertThat(r.request.getDuration()).as(what + ": answered after its delay")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(ReactorNettyServerApp.SLOW_MILLIS));
        }
    }

    static String traceId(int n) {
        return String.format("%032x", n);
    }

    static String firstSegmentThread(Requests.Request r) {
        RecordedEvent first = r.segments.stream().min(Comparator.comparing(RecordedEvent::getStartTime)).orElseThrow();
        return first.getThread("eventThread").getJavaName();
    }
}
