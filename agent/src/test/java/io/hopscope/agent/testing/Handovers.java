package io.hopscope.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs io.hopscope.testapps.HandoverApp's scenarios on a JVM under the agent and gives each
 * request's hops as {@code "kind from->to"} lines, in order, for exact assertions: the hops of a
 * request depend on its path, not on the timing the scenario forced.
 */
public final class Handovers {

    public static final String BOUNDARY = "io.hopscope.testapps.HandoverApp#request";

    private Handovers() {
    }

    /**
     * The JVMs to run on: this one (JDK 17 in the build) and the second JDK (21+), where there is one
     * (fork/join, CompletableFuture and threads changed between them).
     */
    public static Stream<String> jvms() {
        String self = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String second = secondJvm();
        return second == null ? Stream.of(self) : Stream.of(self, second);
    }

    /**
     * The second JDK's java (HOPSCOPE_JDK2, which `make test` sets from scripts/second-jdk.sh), or
     * null where there is none; under CI=true a missing one fails the test instead.
     */
    public static String secondJvm() {
        String home = System.getenv("HOPSCOPE_JDK2");
        Path java = home == null || home.isEmpty() ? null : Path.of(home, "bin", "java");
        if (java != null && Files.isExecutable(java)) {
            return java.toString();
        }
        if (CiSkip.underCi()) {
            throw new AssertionError("CI=true needs a second JDK (21+) in HOPSCOPE_JDK2: make test finds or installs one"
                    + " (scripts/second-jdk.sh --install); HOPSCOPE_JDK2=" + home);
        }
        return null;
    }

    /** Runs the scenarios ({@code SCENARIO:before|parked}) in order; their requests in the same order. */
    public static List<Requests.Request> run(String java, String... scenarios) throws Exception {
        List<String> args = new ArrayList<>(List.of("-cp", System.getProperty("hopscope.test.classes"),
                "io.hopscope.testapps.HandoverApp"));
        args.addAll(List.of(scenarios));
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,requests=" + BOUNDARY, args);
        // JDK 24+ warns when sun.misc.Unsafe is first used: the agent must not make it.
        assertThat(run.stderr).as("stderr on %s", java).doesNotContain("sun.misc.Unsafe");
        List<Requests.Request> requests = new ArrayList<>(run.cleanRequests(scenarios.length).values());
        requests.sort(Comparator.comparing(r -> r.request.getStartTime()));
        assertThat(requests).as("requests of %s; stdout %s", java, run.stdout).hasSize(scenarios.length);
        for (Requests.Request r : requests) {
            r.assertOk(BOUNDARY);
        }
        return requests;
    }

    /** A request's hops as "kind from->to", in order. */
    public static List<String> hops(Requests.Request r) {
        return r.hops.stream()
                .map(h -> h.getString("kind") + " " + Requests.threadName(h, "fromThread") + "->"
                        + Requests.threadName(h, "toThread"))
                .collect(Collectors.toList());
    }

    /** The kinds of the waits of the request on its caller's thread. */
    public static List<String> callerWaits(Requests.Request r) {
        String caller = r.request.getThread().getJavaName();
        return r.waits.stream().filter(w -> caller.equals(w.getThread().getJavaName()))
                .map(w -> w.getString("kind")).collect(Collectors.toList());
    }

    /** The way back for a timing: a return hop when the result was there, a wake when the caller parked. */
    public static String back(boolean parked) {
        return parked ? "wake" : "return";
    }

    public static String jdk(String java) {
        if (Jdk11.is(java)) {
            return "JDK 11 " + java;
        }
        return java.equals(secondJvm()) ? "second JDK " + java : "JDK " + Runtime.version().feature();
    }
}
