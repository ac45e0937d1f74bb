package io.hopscope.agent.instrumentation.grpcserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.ServerChecks;
import io.hopscope.testapps.servers.GrpcServerApp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * gRPC-java's server (grpc-netty-shaded) with an executor of its own, on the oldest and the newest
 * supported release: each call is an inbound request named by its method, begun where the transport
 * created its stream, its first hop the transport's hand-over to the executor (ServerChecks, with
 * the gRPC status codes: 0 for an answered call, 2 UNKNOWN for the handler that throws); a
 * server-streaming call ends with its last message, not when its handler returns; a call the client
 * cancels ends, cancelled; a call its handler fails with a status ends in error with that status.
 */
public class GrpcServerIT {

    static final String GET = GrpcServerApp.SERVICE + "/Get";

    static Stream<Arguments> ends() {
        return LibraryVersions.ends(GrpcServerInstrumentation.NAME, new GrpcServerInstrumentation().versions());
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("ends")
    void aCallIsARequestFromTheTransportsHandOverToItsEnd(String java, String version, String classPath)
            throws Exception {
        checkCases(ServerChecks.check(java, expected(classPath)).byTrace, "gRPC " + version + " on " + java);
    }

    /** The study on the newest gRPC tested. */
    public static ServerChecks.Expected newest() {
        return expected(LibraryVersions.classPath(SupportedVersions.module(GrpcServerInstrumentation.NAME,
                new GrpcServerInstrumentation().versions().newest())));
    }

    /** The study on gRPC's libraries at {@code classPath}. */
    public static ServerChecks.Expected expected(String classPath) {
        return new ServerChecks.Expected("GrpcServerApp", GrpcServerInstrumentation.BOUNDARY)
                .classPath(classPath)
                .name(path -> GET)
                .queue("grpc-", "rpc-worker")
                .laterQueueHops()
                .okStatus(0)
                .failedStatus(2);
    }

    /** The app's streaming, cancelled and rejected calls besides the study: its requests by trace id. */
    public static void checkCases(Map<String, Requests.Request> byTrace, String what) {
        // The server-streaming call: its handler returned before the ticker sent any message; the
        // request ends when the last one has gone with the call's close.
        Requests.Request watch = byTrace.get(traceId(GrpcServerApp.WATCH_TRACE));
        assertThat(watch).as("%s: the Watch call", what).isNotNull();
        assertThat(watch.request.getString("name")).as(what).isEqualTo(GrpcServerApp.SERVICE + "/Watch");
        assertThat(watch.request.getString("outcome")).as(what).isEqualTo("ok");
        assertThat(watch.request.getInt("statusCode")).as(what).isZero();
        List<RecordedEvent> ticks = watch.segments.stream()
                .filter(s -> s.getThread().getJavaName().equals("study-ticker") && "task".equals(s.getString("kind")))
                .toList();
        assertThat(ticks).as("%s: the Watch call's messages, sent by the ticker in the request", what)
                .hasSize(GrpcServerApp.WATCH_MESSAGES);
        Instant end = watch.request.getEndTime();
        assertThat(end).as("%s: the Watch call ends after its last message was sent", what)
                .isAfterOrEqualTo(ticks.get(ticks.size() - 1).getStartTime());
        assertThat(watch.hops).as("%s: the ticker's tasks, scheduled in the request", what).anySatisfy(h -> {
            assertThat(h.getString("kind")).isEqualTo("handoff");
            assertThat(Requests.threadName(h, "toThread")).isEqualTo("study-ticker");
            assertThat(h.getLong("scheduledNanos")).isPositive();
        });

        // The call the client cancelled after two messages: it ends, cancelled.
        Requests.Request follow = byTrace.get(traceId(GrpcServerApp.FOLLOW_TRACE));
        assertThat(follow).as("%s: the Follow call", what).isNotNull();
        assertThat(follow.request.getString("name")).as(what).isEqualTo(GrpcServerApp.SERVICE + "/Follow");
        assertThat(follow.request.getString("outcome")).as(what).isEqualTo("cancelled");
        assertThat(follow.request.getInt("statusCode")).as(what + ": CANCELLED").isEqualTo(1);

        // The handler that failed the call with a status.
        Requests.Request reject = byTrace.get(traceId(GrpcServerApp.REJECT_TRACE));
        assertThat(reject).as("%s: the Reject call", what).isNotNull();
        assertThat(reject.request.getString("name")).as(what).isEqualTo(GrpcServerApp.SERVICE + "/Reject");
        assertThat(reject.request.getString("outcome")).as(what).isEqualTo("error");
        assertThat(reject.request.getInt("statusCode")).as(what + ": FAILED_PRECONDITION").isEqualTo(9);
    }

    private static String traceId(int n) {
        return String.format("%032x", n);
    }
}
