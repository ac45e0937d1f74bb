package io.hopscope.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;

/**
 * A JVM that ran test programs once per seed of the timing chaos (io.hopscope.testapps.ChaosApp,
 * under hopscope's agent and {@link FaultAgent} in mode chaos), read back one run (a program under
 * a seed) at a time: what it printed and the requests that began while it ran, so that each run is
 * checked as its IT checks a JVM of its own.
 */
public final class ChaosRuns {

    /** The JVM's run. */
    public final AgentRun run;
    /** Each program's run under each seed, by seed and then program. */
    public final List<Run> runs;
    /** How long the JVM ran, in milliseconds. */
    public final long millis;

    private ChaosRuns(AgentRun run, List<Run> runs, long millis) {
        this.run = run;
        this.runs = runs;
        this.millis = millis;
    }

    /** The seeds of the chaos runs: hopscope.chaos.seeds (comma-separated), else hopscope.chaos.seed, else 1 to 5. */
    public static List<Long> seeds() {
        String seeds = System.getProperty("hopscope.chaos.seeds", System.getProperty(Chaos.SEED_PROPERTY, ""));
        if (seeds.isBlank()) {
            return List.of(1L, 2L, 3L, 4L, 5L);
        }
        List<Long> parsed = new ArrayList<>();
        for (String seed : seeds.split(",")) {
            parsed.add(Long.parseLong(seed.strip()));
        }
        return parsed;
    }

    /**
     * One program as ChaosApp takes it: its class path (the test applications and {@code libraries},
     * a class path, may be empty), then its class and arguments.
     */
    public static List<String> program(String libraries, List<String> classAndArgs) {
        List<String> program = new ArrayList<>();
        program.add(System.getProperty("hopscope.test.classes")
                + (libraries.isEmpty() ? "" : File.pathSeparator + libraries));
        program.addAll(classAndArgs);
        return program;
    }

    /** One program's run under one seed. */
    public static final class Run {
        public final long seed;
        public final String program;
        public final int exitCode;
        /** What the program printed (between ChaosApp's lines around it). */
        public final String stdout;
        /** The requests that began while it ran, by id, in the order they began. */
        public final Map<Long, Requests.Request> requests;

        Run(long seed, String program, int exitCode, String stdout, Map<Long, Requests.Request> requests) {
            this.seed = seed;
            this.program = program;
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.requests = requests;
        }

        /**
         * The run's requests in the order they began: {@code count} of them, each ended ok at
         * {@code boundary} (as Handovers and AppRuns check a JVM of its own).
         */
        public List<Requests.Request> inOrder(String boundary, int count) {
            List<Requests.Request> ordered = new ArrayList<>(requests.values());
            assertThat(ordered).as("requests of %s; stdout %s", this, stdout).hasSize(count);
            for (Requests.Request r : ordered) {
                r.assertOk(boundary);
            }
            return ordered;
        }

        @Override
        public String toString() {
            return "seed " + seed + ": " + program;
        }
    }

    /**
     * The delays the chaos drew over the whole JVM, per hook and point ("parkEnter before"), yields
     * included: what ChaosApp printed of {@link Chaos#delayed} at its end.
     */
    public Map<String, Long> delayed() {
        Map<String, Long> delayed = new LinkedHashMap<>();
        for (String line : run.stdout.split("\n")) {
            if (line.startsWith("chaos delays {")) {
                for (String entry : line.substring("chaos delays {".length(), line.length() - 1).split(", ")) {
                    int eq = entry.lastIndexOf('=');
                    delayed.put(entry.substring(0, eq), Long.parseLong(entry.substring(eq + 1)));
                }
            }
        }
        return delayed;
    }

    /**
     * Runs {@code programs} once per seed, in order, on one JVM ({@code java}) under the agent with
     * {@code options} and the chaos, and gives each run, by seed and then program. The JVM must exit
     * 0 with a clean recording ({@link AgentRun#cleanRequests}); each run's own checks are the caller's.
     */
    public static ChaosRuns run(String java, String options, List<Long> seeds, List<List<String>> programs,
            int timeoutSeconds) throws Exception {
        // ChaosApp runs from the fault agent's jar: no test application on the JVM's class path.
        List<String> args = new ArrayList<>(List.of("-cp", AgentRun.chaosJar(Jdk11.is(java)).toString(),
                "io.hopscope.testapps.ChaosApp", seeds.stream().map(String::valueOf).collect(Collectors.joining(","))));
        for (int i = 0; i < programs.size(); i++) {
            if (i > 0) {
                args.add("--next");
            }
            args.addAll(programs.get(i));
        }
        long start = System.nanoTime();
        AgentRun run = AgentRun.runUnderChaos(java, options, args, timeoutSeconds);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(run.exitCode).as("chaos runs on %s: exit; stdout %s; stderr %s", java, run.stdout, run.stderr)
                .isZero();
        Map<Long, Requests.Request> all = run.cleanRequests(0);
        List<RecordedEvent> events = run.events();
        List<RecordedEvent> marks = events.stream()
                .filter(e -> e.getEventType().getName().equals("hopscope.test.ChaosRun"))
                .sorted(Comparator.comparing(RecordedEvent::getStartTime)).collect(Collectors.toList());
        List<String> outputs = outputs(run.stdout);
        assertThat(marks).as("chaos runs on %s, one per seed and program", java)
                .hasSize(seeds.size() * programs.size());
        assertThat(outputs).as("chaos runs' output on %s", java).hasSize(marks.size());
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < marks.size(); i++) {
            RecordedEvent mark = marks.get(i);
            Map<Long, Requests.Request> during = new LinkedHashMap<>();
            all.values().stream()
                    .filter(r -> within(began(r), mark))
                    .sorted(Comparator.comparing(ChaosRuns::began))
                    .forEach(r -> during.put(r.id, r));
            String output = outputs.get(i);
            int exit = Integer.parseInt(output.substring(output.lastIndexOf("exit ") + "exit ".length()).strip());
            runs.add(new Run(mark.getLong("seed"), mark.getString("program"), exit,
                    output.substring(0, output.lastIndexOf("chaos run ")), during));
        }
        return new ChaosRuns(run, runs, millis);
    }

    /** What each run printed, with ChaosApp's line that ends it ("chaos run SEED ends: exit CODE"). */
    private static List<String> outputs(String stdout) {
        List<String> outputs = new ArrayList<>();
        StringBuilder current = null;
        for (String line : stdout.split("\n")) {
            if (line.startsWith("chaos run ") && line.contains(" begins: ")) {
                current = new StringBuilder();
            } else if (current != null) {
                current.append(line).append('\n');
                if (line.startsWith("chaos run ") && line.contains(" ends: exit ")) {
                    outputs.add(current.toString());
                    current = null;
                }
            }
        }
        return outputs;
    }

    /** When a request began: its Request event's start, or its first event's where it has none (it never ended). */
    private static Instant began(Requests.Request r) {
        if (r.request != null) {
            return r.request.getStartTime();
        }
        List<RecordedEvent> all = new ArrayList<>(r.segments);
        all.addAll(r.hops);
        all.addAll(r.waits);
        all.addAll(r.spans);
        return all.stream().map(RecordedEvent::getStartTime).min(Comparator.naturalOrder()).orElse(Instant.MAX);
    }

    private static boolean within(Instant t, RecordedEvent mark) {
        return !t.isBefore(mark.getStartTime()) && !t.isAfter(mark.getEndTime());
    }
}
