package io.hopscope.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Runs one of the HTTP client apps (io.hopscope.testapps.*App over ClientServer) under the agent,
 * on a tested end of the client's range (testlibs, {@link LibraryVersions}) or on the libraries the
 * agent compiles against (the build's client-libraries.classpath), and gives its requests in the
 * order they started, after checking what every run must hold.
 */
public final class ClientApps {

    private ClientApps() {
    }

    /** The libraries the agent compiles against (the provided scope), as a class path. */
    public static String providedLibraries() throws Exception {
        return Files.readString(Path.of(System.getProperty("hopscope.client.classpath"))).trim();
    }

    /** The run's requests by start time: {@code ok} successes, then one refused connection. */
    public static List<Requests.Request> run(String java, String app, int ok) throws Exception {
        return run(java, providedLibraries(), app, ok, "", 0);
    }

    /**
     * The same on the class path {@code libraries}, with more agent options ({@code more}:
     * ",requests=...") and, when {@code extra} is more than 0, the app's "nested" argument, which
     * adds that many requests after those.
     */
    public static List<Requests.Request> run(String java, String libraries, String app, int ok, String more, int extra)
            throws Exception {
        String classPath = System.getProperty("hopscope.test.classes") + File.pathSeparator + libraries;
        List<String> args = new ArrayList<>(List.of("-cp", classPath, "io.hopscope.testapps." + app, Integer.toString(ok)));
        if (extra > 0) {
            args.add("nested");
        }
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,spanthreshold=0" + more, args);
        assertThat(run.stdout).as("stdout on %s; stderr %s", java, run.stderr)
                .contains("responses ok: " + ok + ", failed: 1");
        assertThat(run.stderr).as("stderr on %s", java).doesNotContain("sun.misc.Unsafe");
        Map<Long, Requests.Request> byId = run.cleanRequests(ok + 1 + extra);
        List<RecordedEvent> events = run.events();
        // The URL's secret (sig=SECRET) never reaches the recording, in any event.
        assertThat(events).filteredOn(e -> e.getEventType().getName().startsWith("hopscope."))
                .noneMatch(e -> e.toString().contains("SECRET"));
        // The app's server is the JDK's, in process: each call it answered is an inbound request of its own.
        List<Requests.Request> served = new ArrayList<>();
        List<Requests.Request> requests = new ArrayList<>();
        for (Requests.Request r : byId.values()) {
            ("server".equals(r.request.getString("kind")) ? served : requests).add(r);
        }
        assertThat(served).as("the server's requests on %s", java).hasSize(ok + extra).allSatisfy(ClientApps::assertServed);
        requests.sort(Comparator.comparing(r -> r.request.getStartTime()));
        assertThat(requests).as("requests on %s", java).hasSize(ok + 1 + extra);
        return requests;
    }

    /** An inbound request of ClientServer's: named by path, its query redacted, 200, on the server's dispatcher. */
    private static void assertServed(Requests.Request r) {
        assertThat(r.request.getString("boundary")).isEqualTo("com.sun.net.httpserver.HttpHandler#handle");
        assertThat(r.request.getString("name")).isEqualTo("GET /hello");
        assertThat(r.request.getString("url")).isEqualTo("/hello?comp=list");
        assertThat(r.request.getInt("statusCode")).isEqualTo(200);
        assertThat(r.request.getString("outcome")).isEqualTo("ok");
        assertThat(r.hops).as("the default executor runs the exchange on the dispatcher: no queue").isEmpty();
    }

    /** Asserts a successful request's name, URL (query redacted to the allow-list), status and outcome. */
    public static void assertHello(Requests.Request r, String boundary) {
        assertThat(r.request.getString("boundary")).isEqualTo(boundary);
        assertThat(r.request.getString("name")).isEqualTo("GET 127.0.0.1/hello");
        assertThat(r.request.getString("url")).matches("http://127\\.0\\.0\\.1:\\d+/hello\\?comp=list");
        assertThat(r.request.getInt("statusCode")).isEqualTo(200);
        assertThat(r.request.getString("outcome")).isEqualTo("ok");
        assertThat(Requests.startThreadName(r.request)).isEqualTo("main");
    }

    /** Asserts the refused request's name, URL (its secret dropped), outcome and error. */
    public static void assertRefused(Requests.Request r, String boundary) {
        assertThat(r.request.getString("boundary")).isEqualTo(boundary);
        assertThat(r.request.getString("name")).isEqualTo("GET 127.0.0.1/refused");
        assertThat(r.request.getString("url")).matches("http://127\\.0\\.0\\.1:\\d+/refused");
        assertThat(r.request.getInt("statusCode")).isEqualTo(-1);
        assertThat(r.request.getString("outcome")).isEqualTo("error");
        assertThat(r.request.getString("error")).isNotNull();
        assertThat(Requests.startThreadName(r.request)).isEqualTo("main");
    }

    /** A request's hops as "kind from->to via", in order (for the failure message). */
    public static List<String> describe(Requests.Request r) {
        List<String> hops = new ArrayList<>();
        for (RecordedEvent h : r.hops) {
            hops.add(h.getString("kind") + " " + Requests.threadName(h, "fromThread") + "->"
                    + Requests.threadName(h, "toThread") + " " + h.getString("via"));
        }
        return hops;
    }

    /** What one client's IT checks on each request beyond {@link #checkEach}'s common part. */
    @FunctionalInterface
    public interface RequestCheck {
        void check(Requests.Request r, int index, String what);
    }

    /**
     * Runs {@code app} on the class path {@code libraries} with {@code ok} successes and one refused
     * connection, and checks each request as every client's must hold (the answered ones by
     * {@link #assertHello}, the refused one by {@link #assertRefused} with the client's exception
     * {@code refusedError}), then by {@code check} with the request's index and a description for
     * assertion messages.
     */
    public static void checkEach(String java, String libraries, String app, int ok, String boundary, String refusedError,
            RequestCheck check) throws Exception {
        List<Requests.Request> requests = run(java, libraries, app, ok, "", 0);
        for (int i = 0; i < requests.size(); i++) {
            Requests.Request r = requests.get(i);
            String what = Handovers.jdk(java) + " request " + i + " " + describe(r);
            if (i < ok) {
                assertHello(r, boundary);
            } else {
                assertRefused(r, boundary);
                assertThat(r.request.getString("error")).as(what).isEqualTo(refusedError);
            }
            check.check(r, i, what);
        }
    }
}
