package io.hopscope.agent.instrumentation.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import io.hopscope.testapps.servers.TomcatAsyncApp;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Async servlets on Tomcat 11 (TomcatAsyncApp): a request ends when its response completes, on
 * whichever thread, not when its first thread returns; AsyncContext#start is a hop of the request;
 * a dispatch from a thread outside the request continues it rather than beginning another; a
 * client that resets its connection mid-response ends its request in error, and nothing hangs.
 */
class TomcatAsyncIT {

    private static final Pattern CASE = Pattern.compile("case (\\S+) (\\S+) status (-?\\d+) body (.*)");

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void asyncRequestsEndWithTheirResponse(String java) throws Exception {
        SupportedVersions versions = new TomcatInstrumentation().versions();
        String classPath = System.getProperty("hopscope.test.classes") + File.pathSeparator
                + LibraryVersions.classPath(SupportedVersions.module("tomcat", versions.newest()));
        AgentRun run = AgentRun.run(java, "jfr=%JFR%", List.of("-cp", classPath,
                "io.hopscope.testapps.servers.TomcatAsyncApp"));
        String what = "TomcatAsyncApp on " + java + "; stdout " + run.stdout + "; stderr " + run.stderr;
        assertThat(run.exitCode).as(what).isZero();
        Map<String, Matcher> cases = new HashMap<>();
        for (String line : run.stdout.split("\n")) {
            Matcher m = CASE.matcher(line.trim());
            if (m.matches()) {
                cases.put(m.group(1), m);
            }
        }
        assertThat(cases).as(what).containsOnlyKeys("later", "start", "dispatch", "gone");
        assertThat(run.stdout).as(what + ": the servlet whose client went away").contains("gone servlet threw ");
        Map<Long, Requests.Request> all = run.cleanRequests(4);
        Map<String, List<Requests.Request>> byTrace = new HashMap<>();
        for (Requests.Request r : all.values()) {
            assertThat(r.request).as("%s: request %d ended", what, r.id).isNotNull();
            if ("server".equals(r.request.getString("kind")) && r.request.getString("traceId") != null) {
                byTrace.computeIfAbsent(r.request.getString("traceId"), k -> new ArrayList<>()).add(r);
            }
        }
        long laterNanos = Duration.ofMillis(TomcatAsyncApp.LATER_MILLIS).toNanos();

        Requests.Request later = only(byTrace, cases.get("later"), "GET /async/later", what);
        assertThat(cases.get("later").group(4)).isEqualTo("later");
        assertThat(later.request.getDuration().toNanos()).as(what + ": completed %d ms after the first thread returned",
                TomcatAsyncApp.LATER_MILLIS).isGreaterThanOrEqualTo(laterNanos);
        assertThat(later.hops).as(what + ": the scheduler's hop").anySatisfy(h ->
                assertThat(Requests.threadName(h, "toThread")).isEqualTo("async-later"));

        Requests.Request start = only(byTrace, cases.get("start"), "GET /async/start", what);
        String startedOn = cases.get("start").group(4).substring("started on ".length());
        assertThat(start.hops).as(what + ": AsyncContext#start's task, a hop to " + startedOn).anySatisfy(h -> {
            assertThat(h.getString("kind")).isEqualTo("handoff");
            assertThat(h.getBoolean("serverQueue")).isFalse();
            assertThat(Requests.threadName(h, "toThread")).isEqualTo(startedOn);
            assertThat(Requests.threadName(h, "fromThread")).isNotEqualTo(startedOn).matches(TomcatIT.WORKERS + ".*");
        });

        Requests.Request dispatch = only(byTrace, cases.get("dispatch"), "GET /async/dispatch", what);
        assertThat(cases.get("dispatch").group(4)).isEqualTo("dispatched");
        assertThat(dispatch.request.getDuration().toNanos()).as(what + ": dispatched %d ms later, in the same request",
                TomcatAsyncApp.LATER_MILLIS).isGreaterThanOrEqualTo(laterNanos);
        assertThat(dispatch.segments).as(what + ": the dispatched servlet's run resumed the request")
                .anySatisfy(s -> assertThat(s.getString("kind")).isEqualTo("resume"));

        Requests.Request gone = only(byTrace, cases.get("gone"), "GET /gone", what);
        assertThat(gone.request.getString("outcome")).as(what + ": the write that failed").isEqualTo("error");
        assertThat(gone.request.getString("error")).as(what).isNotNull();
    }

    /** The one server request of the case's trace, named so, ended ok with 200 unless it is "gone". */
    private static Requests.Request only(Map<String, List<Requests.Request>> byTrace, Matcher sent, String name,
            String what) {
        String traceId = sent.group(2);
        List<Requests.Request> found = byTrace.getOrDefault(traceId, List.of());
        assertThat(found).as(what + ": the requests of trace " + traceId + " (" + name + ")").hasSize(1);
        RecordedEvent request = found.get(0).request;
        assertThat(request.getString("name")).as(what).isEqualTo(name);
        assertThat(request.getString("boundary")).as(what).isEqualTo(TomcatInstrumentation.BOUNDARY);
        if (!name.equals("GET /gone")) {
            assertThat(Integer.parseInt(sent.group(3))).as(what + ": " + name + " at the client").isEqualTo(200);
            assertThat(request.getInt("statusCode")).as(what + ": " + name).isEqualTo(200);
            assertThat(request.getString("outcome")).as(what + ": " + name).isEqualTo("ok");
        }
        return found.get(0);
    }
}
