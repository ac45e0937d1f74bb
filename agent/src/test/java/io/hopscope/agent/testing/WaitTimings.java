package io.hopscope.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs io.hopscope.testapps.ReturnHopApp for some wait kinds, each once with its result completed
 * before the caller looks and once with the caller parked first, and checks that the way back is a
 * hop either way: exactly a handoff to the worker and a {@code return} (not parked) or {@code wake}
 * (parked) hop back, over the caller and the worker only; a Wait only when the caller parked.
 */
public final class WaitTimings {

    public static final String BOUNDARY = "io.hopscope.testapps.ReturnHopApp#request";

    private WaitTimings() {
    }

    /** On this JVM, with the Reactor the agent compiles against (the app names Reactor's classes). */
    public static void assertTheWayBackIsAlwaysAHop(String... kinds) throws Exception {
        assertTheWayBackIsAlwaysAHopOn(AgentRun.javaHere(), reactor(), kinds);
    }

    /** On the JVM {@code java}, with Reactor from the class path {@code libraries}. */
    public static void assertTheWayBackIsAlwaysAHopOn(String java, String libraries, String... kinds) throws Exception {
        String classPath = System.getProperty("hopscope.test.classes") + File.pathSeparator + libraries;
        List<String> args = new ArrayList<>(List.of("-cp", classPath, "io.hopscope.testapps.ReturnHopApp"));
        args.addAll(List.of(kinds));
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,requests=" + BOUNDARY, args);
        List<Requests.Request> requests = new ArrayList<>(run.cleanRequests(2 * kinds.length).values());
        requests.sort(Comparator.comparing(r -> r.request.getStartTime()));
        check(requests, kinds);
    }

    /** The requests of a run of ReturnHopApp for {@code kinds}, in order: each kind before, then parked. */
    public static void check(List<Requests.Request> requests, String... kinds) {
        assertThat(requests).hasSize(2 * kinds.length);
        for (int i = 0; i < requests.size(); i++) {
            Requests.Request r = requests.get(i);
            String kind = kinds[i / 2];
            boolean parked = i % 2 == 1;
            String what = kind + (parked ? " parked" : " before") + ", request " + r.id;
            r.assertOk(BOUNDARY);
            String caller = r.request.getThread().getJavaName();
            List<String> hops = r.hops.stream()
                    .map(h -> h.getString("kind") + " " + Requests.threadName(h, "fromThread") + "->"
                            + Requests.threadName(h, "toThread"))
                    .collect(Collectors.toList());
            assertThat(hops).as(what).containsExactly("handoff " + caller + "->return-worker",
                    (parked ? "wake" : "return") + " return-worker->" + caller);
            assertThat(r.hops.get(1).getLong("delayNanos")).as(what).isGreaterThanOrEqualTo(0);
            assertThat(r.waits).as(what).hasSize(parked ? 1 : 0);
            if (parked) {
                assertThat(r.waits.get(0).getString("kind")).as(what).isEqualTo(kind);
            }
            assertThat(r.threads()).as(what).hasSize(2);
        }
    }

    /** Reactor's jars, as a class path: the Reactor the agent compiles against. */
    public static String reactor() throws Exception {
        return AppRuns.classPathOf(List.of(reactor.core.publisher.Mono.class, org.reactivestreams.Publisher.class));
    }
}
