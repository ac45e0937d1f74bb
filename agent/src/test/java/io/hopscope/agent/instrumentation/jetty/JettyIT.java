package io.hopscope.agent.instrumentation.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.CiSkip;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.ServerChecks;
import io.hopscope.testapps.servers.JettyApp;
import io.hopscope.testapps.servers.JettyCasesApp;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Jetty 12's core server, on the oldest and the newest release of its range, on JDK 17 and the
 * second JDK: each request begins at {@code Server#handle}, from where the selector handed it to a
 * thread, and ends when Jetty completes its stream.
 */
public class JettyIT {

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("jetty", new JettyInstrumentation().versions());
    }

    /** The two ends on the second JDK (21+) alone, for virtual threads; a skip where there is none. */
    static Stream<Arguments> endsWithVirtualThreads() {
        String second = Handovers.secondJvm();
        return second == null ? Stream.of(Arguments.of(null, "-", ""))
                : ends().filter(a -> second.equals(a.get()[0]));
    }

    /**
     * The study (ServerChecks) on a pool of two request threads: the hand-over is the selector's
     * endpoint task handed to the pool; Jetty answers the failing handler 500.
     */
    @ParameterizedTest(name = "{0} Jetty {1}")
    @MethodSource("ends")
    void aRequestStartsWhereTheSelectorHandedItToThePool(String java, String version, String classPath) throws Exception {
        ServerChecks.check(java, expected(classPath));
    }

    /** The study on the newest Jetty tested. */
    public static ServerChecks.Expected newest() {
        return expected(newestClassPath());
    }

    /** The study on the newest Jetty tested, a virtual thread per request. */
    public static ServerChecks.Expected newestVirtual() {
        return expectedVirtual(newestClassPath());
    }

    private static String newestClassPath() {
        return LibraryVersions.classPath(SupportedVersions.module("jetty",
                new JettyInstrumentation().versions().newest()));
    }

    /** The study on Jetty's libraries at {@code classPath}. */
    public static ServerChecks.Expected expected(String classPath) {
        return new ServerChecks.Expected("JettyApp", JettyInstrumentation.BOUNDARY)
                .classPath(classPath)
                .queue(JettyApp.POOL, JettyApp.POOL);
    }

    /** The study with a virtual thread per request: the selector's hand-over to it is the first hop. */
    @ParameterizedTest(name = "{0} Jetty {1}")
    @MethodSource("endsWithVirtualThreads")
    void aRequestOnAVirtualThreadStartsWhereTheSelectorStartedIt(String java, String version, String classPath)
            throws Exception {
        CiSkip.unless(java != null, "no second JDK (21+) in HOPSCOPE_JDK2");
        ServerChecks.check(java, expectedVirtual(classPath));
    }

    /** The study on Jetty's libraries at {@code classPath}, a virtual thread per request. */
    public static ServerChecks.Expected expectedVirtual(String classPath) {
        return new ServerChecks.Expected("JettyApp", JettyInstrumentation.BOUNDARY)
                .classPath(classPath)
                .args("virtual")
                .queue(JettyApp.POOL, JettyApp.VIRTUAL)
                .threadPerRequest();
    }

    /**
     * JettyCasesApp: an async handler's request ends on the thread that completes its callback, at
     * that moment; a request the client disconnects from mid-response ends in error; a pipelined
     * request read by the thread that ran the one before has no hand-over, and one whose connection
     * an async completion handed back to the pool starts at that hand-over, a request of its own; a
     * request no handler takes ends with Jetty's 404.
     */
    @ParameterizedTest(name = "{0} Jetty {1}")
    @MethodSource("ends")
    void asyncDisconnectedPipelinedAndUnhandledRequestsEnd(String java, String version, String classPath) throws Exception {
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,spanthreshold=0", List.of("-cp",
                System.getProperty("hopscope.test.classes") + File.pathSeparator + classPath,
                "io.hopscope.testapps.servers.JettyCasesApp"));
        String what = "Jetty " + version + " on " + Handovers.jdk(java) + "; stdout " + run.stdout;
        assertThat(run.stdout).as(what).contains("cases ok");
        Map<Long, Requests.Request> all = run.cleanRequests(6);
        List<Requests.Request> served = new ArrayList<>();
        for (Requests.Request r : all.values()) {
            assertThat(r.request).as("%s: request %d ended", what, r.id).isNotNull();
            assertThat(r.request.getString("kind")).as(what).isEqualTo("server");
            assertThat(r.request.getString("boundary")).as(what).isEqualTo(JettyInstrumentation.BOUNDARY);
            served.add(r);
        }
        served.sort(Comparator.comparing(r -> r.request.getStartTime()));
        assertThat(served).as(what).extracting(r -> r.request.getString("name")).containsExactly("GET /disconnect",
                "GET /sync", "GET /sync", "GET /async", "GET /after-async", "GET /missing");

        RecordedEvent disconnected = served.get(0).request;
        assertThat(disconnected.getString("outcome")).as(what + ": the client reset the connection mid-response")
                .isEqualTo("error");
        assertThat(disconnected.getString("error")).as(what).isNotNull();
        assertThat(disconnected.getInt("statusCode")).as(what + ": the status it had sent").isEqualTo(200);

        Requests.Request first = served.get(1);
        Requests.Request second = served.get(2);
        assertThat(serverQueue(first)).as(what + ": the first of two pipelined requests, handed over").hasSize(1);
        assertThat(serverQueue(second)).as(what + ": the second, read by the thread that ran the first").isEmpty();
        assertThat(Requests.startThreadName(second.request)).as(what)
                .isEqualTo(first.request.getThread().getJavaName());

        Requests.Request async = served.get(3);
        assertThat(async.request.getString("outcome")).as(what).isEqualTo("ok");
        assertThat(async.request.getInt("statusCode")).as(what).isEqualTo(200);
        assertThat(async.request.getThread().getJavaName()).as(what + ": ended where its callback completed")
                .isEqualTo(JettyCasesApp.COMPLETER);
        assertThat(async.request.getDuration()).as(what + ": ended when its callback completed, not when it returned")
                .isGreaterThanOrEqualTo(Duration.ofMillis(JettyCasesApp.ASYNC_DELAY_MILLIS));
        assertThat(async.hops).as(what + ": the completion handed to the completer").anySatisfy(h -> {
            assertThat(h.getString("kind")).isEqualTo("handoff");
            assertThat(Requests.threadName(h, "toThread")).isEqualTo(JettyCasesApp.COMPLETER);
        });

        Requests.Request afterAsync = served.get(4);
        assertThat(serverQueue(afterAsync)).as(what + ": the connection handed back to the pool by the completion")
                .singleElement().satisfies(h -> {
                    assertThat(afterAsync.hops.get(0)).isSameAs(h);
                    assertThat(Requests.threadName(h, "fromThread")).isEqualTo(JettyCasesApp.COMPLETER);
                    assertThat(Requests.threadName(h, "toThread")).startsWith(JettyCasesApp.POOL);
                });
        assertThat(serverQueue(async)).as(what + ": its own hand-over only, not its connection's after it ended")
                .hasSize(1);

        RecordedEvent missing = served.get(5).request;
        assertThat(missing.getInt("statusCode")).as(what + ": no handler took it").isEqualTo(404);
        assertThat(missing.getString("outcome")).as(what).isEqualTo("ok");
    }

    private static List<RecordedEvent> serverQueue(Requests.Request r) {
        return r.hops.stream().filter(h -> h.getBoolean("serverQueue")).toList();
    }
}
