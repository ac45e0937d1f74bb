package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Issue 5's "done when", for real: the samples run under the agent while {@code bpf/offwake.py}
 * traces them, then {@code report --bpf} merges the two. Needs root, bcc able to load a tracepoint
 * program, and the samples and agent jars; skipped, saying which is missing, otherwise.
 */
@Isolated("offwake traces the whole machine and its lossy run is timed")
class BpfMergeIT {

    static final String PYTHON = "/usr/bin/python3";
    static Path samples;
    static Path agent;
    static Path offwake;

    @TempDir
    Path dir;

    @BeforeAll
    static void needs() throws Exception {
        samples = Paths.moduleDir().resolve("../samples/target/hopscope-samples.jar").normalize();
        agent = Paths.moduleDir().resolve("../agent/target/hopscope-agent.jar").normalize();
        offwake = Paths.moduleDir().resolve("../bpf/offwake.py").normalize();
        assumeTrue(Files.isRegularFile(samples) && Files.isRegularFile(agent),
                "needs " + samples + " and " + agent + " (build the whole reactor)");
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to load BPF programs");
        // One tracepoint program, the smallest thing that proves bcc, headers and tracefs work here.
        Process p = new ProcessBuilder(PYTHON, "-c", "from bcc import BPF; "
                + "BPF(text='TRACEPOINT_PROBE(sched, sched_switch) { return 0; }')").redirectErrorStream(true).start();
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        String why = new String(p.getInputStream().readAllBytes()).strip();
        assumeTrue(done && p.exitValue() == 0, "bcc cannot load a tracepoint program here (run bpf/setup.sh): "
                + (why.isEmpty() ? "" : why.lines().reduce((a, b) -> b).orElse("")));
    }

    @Test
    void knownPathCallerIsWokenByB() throws Exception {
        // 10 s of requests: offwake's start (jcmd, then compiling the program) took 6-16 s on a loaded
        // machine, and 2.5 s of requests were over before it traced any.
        JsonNode report = traced("known-path", "requests=io.hopscope.samples.knownpath.KnownPath#request", true,
                "known-path", "--count", "200", "--pause-ms", "50");
        int wokenByB = 0;
        int wokenOnlyByOthers = 0;
        long endedByB = 0;
        long endedByOthers = 0;
        long byB = 0;
        long byOthers = 0;
        for (JsonNode r : report.get("requests")) {
            boolean callerWoken = false;
            boolean b = false;
            for (JsonNode w : r.get("wakers")) {
                if (w.get("thread").asText().equals("known-path-caller") && w.get("during").asText().equals("CompletableFuture.get")) {
                    if (w.get("waker").asText().equals("known-path-B")) {
                        endedByB += w.get("waitsEnded").asLong();
                    } else {
                        endedByOthers += w.get("waitsEnded").asLong();
                    }
                }
                // The caller parks in CompletableFuture.get, which B's complete() ends with a futex wake.
                // Others can wake it there too without ending the wait (JFR's sampler suspends and
                // resumes threads through a semaphore), so B must be there, not alone.
                if (w.get("thread").asText().equals("known-path-caller") && w.get("futexWakes").asLong() > 0
                        && w.get("during").asText().equals("CompletableFuture.get")) {
                    callerWoken = true;
                    if (w.get("waker").asText().equals("known-path-B")) {
                        b = true;
                        byB += w.get("futexWakes").asLong();
                    } else {
                        byOthers += w.get("futexWakes").asLong();
                    }
                }
            }
            if (b) {
                wokenByB++;
            } else if (callerWoken) {
                // Possible when B completes the future while another thread has the caller suspended.
                wokenOnlyByOthers++;
            }
        }
        // offwake needs a few seconds to start (more on a loaded machine), so not every request is traced.
        assertThat(wokenByB).as("requests whose caller B futex-woke").isGreaterThanOrEqualTo(5);
        assertThat(wokenOnlyByOthers).as("requests whose caller only others futex-woke").isLessThanOrEqualTo(wokenByB / 10);
        assertThat(byB).as("futex wakes of the caller in get by B vs others").isGreaterThan(byOthers);
        assertThat(endedByB).as("caller's waits in get that B's wakeup ended").isGreaterThanOrEqualTo(5);
        assertThat(endedByOthers).as("caller's waits in get that others ended").isLessThanOrEqualTo(endedByB / 10);
        // The folded output of the same run: only per thread name, under kernel names (15 bytes).
        Cli folded = Cli.run("report", dir.resolve("known-path.jfr").toString(), "--bpf",
                dir.resolve("known-path.folded").toString(), "--format", "json");
        assertThat(folded.exitCode()).as(folded.err()).isZero();
        JsonNode kernel = new ObjectMapper().readTree(folded.out()).get("kernel");
        assertThat(kernel.get("perRequest").asBoolean()).isFalse();
        long callerByBMicros = 0;
        for (JsonNode p : kernel.get("threadNames")) {
            if (p.get("wakee").asText().equals("known-path-call") && p.get("waker").asText().equals("known-path-B")) {
                callerByBMicros = p.get("totalMicros").asLong();
            }
        }
        assertThat(callerByBMicros).as("folded: known-path-call woken by known-path-B").isPositive();
        System.out.println("known-path folded: known-path-call <- known-path-B " + callerByBMicros + " us off CPU");
        System.out.println("known-path: " + wokenByB + " of " + report.get("requests").size()
                + " requests: caller woken in CompletableFuture.get by known-path-B (futex); futex wakes there by B "
                + byB + ", by other threads " + byOthers + "; requests woken there only by others: " + wokenOnlyByOthers
                + "; waits in get ended by B " + endedByB + ", by others " + endedByOthers);
    }

    @Test
    void nettyCallersAreWokenInMonoBlockByEventLoopsAndOkHttpIsNot() throws Exception {
        JsonNode netty = traced("netty", null, false, "pipeline", "--http-client", "netty", "--mode", "sync-over-async",
                "--warmup", "3", "--duration", "2");
        long withFutexInBlock = 0;
        long eventLoopWakes = 0;
        long eventLoopRunQueueNanos = 0;
        long blocksEndedByEventLoop = 0;
        long blocksEndedByOthers = 0;
        long traced = 0;
        for (JsonNode r : netty.get("requests")) {
            if (r.get("contextSwitches").asLong() > 0) {
                traced++;
            }
            for (JsonNode d : r.get("kernelDuring")) {
                if (d.get("during").asText().equals("Mono.block") && d.get("futexWaits").asLong() > 0) {
                    withFutexInBlock++;
                }
            }
            for (JsonNode w : r.get("wakers")) {
                if (w.get("during").asText().equals("Mono.block")) {
                    if (w.get("waker").asText().startsWith("reactor-http-ep")) {
                        blocksEndedByEventLoop += w.get("waitsEnded").asLong();
                    } else {
                        blocksEndedByOthers += w.get("waitsEnded").asLong();
                    }
                }
                // Kernel names are cut at 15 bytes: reactor-http-epoll-1 is "reactor-http-ep" there.
                if (w.get("during").asText().equals("Mono.block") && w.get("waker").asText().startsWith("reactor-http-ep")
                        && w.get("thread").asText().startsWith("pipeline-caller") && w.get("futexWakes").asLong() > 0) {
                    eventLoopWakes += w.get("count").asLong();
                    eventLoopRunQueueNanos += w.get("runQueueNanos").asLong();
                }
            }
        }
        System.out.printf("netty sync-over-async: %d requests, %d traced, %d with futex waits in Mono.block,"
                        + " %d event-loop futex wakes there, %.1f us run queue after them; Mono.block waits ended by"
                        + " event loops %d, by others %d%n",
                netty.get("requests").size(), traced, withFutexInBlock, eventLoopWakes, eventLoopRunQueueNanos / 1e3,
                blocksEndedByEventLoop, blocksEndedByOthers);
        assertThat(traced).isGreaterThanOrEqualTo(50);
        assertThat(withFutexInBlock).isGreaterThanOrEqualTo(traced / 2);
        assertThat(eventLoopWakes).isGreaterThanOrEqualTo(traced / 2);
        assertThat(eventLoopRunQueueNanos).isPositive();
        assertThat(blocksEndedByEventLoop).isGreaterThanOrEqualTo(traced / 2);
        assertThat(blocksEndedByOthers).isLessThanOrEqualTo(blocksEndedByEventLoop / 10);
        picturesShowEventLoopsWakingCallers();

        JsonNode okhttp = traced("okhttp", null, false, "pipeline", "--http-client", "okhttp", "--mode", "sync",
                "--warmup", "3", "--duration", "2");
        long okTraced = 0;
        for (JsonNode r : okhttp.get("requests")) {
            if (r.get("contextSwitches").asLong() > 0) {
                okTraced++;
            }
            for (JsonNode d : r.get("kernelDuring")) {
                assertThat(d.get("during").asText()).as("okhttp sync has no waits").isEqualTo("segment");
            }
            for (JsonNode w : r.get("wakers")) {
                assertThat(w.get("waker").asText()).doesNotStartWith("reactor-http");
            }
        }
        System.out.printf("okhttp sync: %d requests, %d traced, none woken in a wait or by an event loop%n",
                okhttp.get("requests").size(), okTraced);
        assertThat(okTraced).isGreaterThanOrEqualTo(50);
    }

    /**
     * Issue 23: offwake losing records for real marks the requests that may miss some. A ring of 8 pages
     * holds one batch, and at the known path's low rate each CPU sends a batch by age about every 100 ms,
     * so about one batch a drain gets through and the others are lost. 400 requests (about 35 s): offwake
     * can take 20 s to start on a loaded machine. Every known-path request parks
     * its caller in {@code CompletableFuture.get} for the holder's 30 ms: a traced request that is not
     * marked must show that switch out; one whose interval was lost must be marked. A loss window spans
     * from the earliest switch out in the lost batches, and a batch often holds a long sleep of some
     * thread of the JVM, so most requests are marked: in some runs all of them, and then only the
     * marking, not the unmarked ones, is checked.
     */
    @Test
    void requestsOverlappingLostRecordsAreMarkedAndTheOthersAreWhole() throws Exception {
        // A ring buffer of one batch, and offwake stopped (SIGSTOP) three times for 300 ms while the sample
        // runs: its drain, woken at every batch, keeps up otherwise, and each stop loses a stretch of records.
        stalls = 3;
        String tracerOut = run("lossy", "requests=io.hopscope.samples.knownpath.KnownPath#request", true,
                List.of("--stacks", "none", "--buffer-pages", "8"), "known-path", "--count", "600", "--pause-ms", "50");
        java.util.regex.Matcher lost = java.util.regex.Pattern.compile("lost (\\d+) events").matcher(tracerOut);
        assertThat(lost.find()).as(tracerOut).isTrue();
        assertThat(Long.parseLong(lost.group(1))).as("records lost: " + tracerOut).isPositive();
        JsonNode report = report("lossy");
        List<JsonNode> traced = new ArrayList<>();
        for (JsonNode r : report.get("requests")) {
            if (r.get("contextSwitches").asLong() > 0 || r.get("kernelIncomplete").asBoolean()) {
                traced.add(r);
            }
        }
        long marked = 0;
        long whole = 0;
        // The first and last traced requests may have begun before tracing or ended after it.
        for (JsonNode r : traced.subList(1, traced.size() - 1)) {
            if (r.get("kernelIncomplete").asBoolean()) {
                marked++;
                continue;
            }
            whole++;
            long switchesInGet = 0;
            for (JsonNode d : r.get("kernelDuring")) {
                if (d.get("during").asText().equals("CompletableFuture.get")) {
                    switchesInGet += d.get("contextSwitches").asLong();
                }
            }
            assertThat(switchesInGet).as("request %s is not marked, so its caller's park in get is there",
                    r.get("id")).isPositive();
        }
        JsonNode kernel = report.get("kernel");
        System.out.printf("lossy known-path: %d requests, %d traced; inside: %d marked incomplete, %d whole; %d loss"
                        + " window(s); %s%n", report.get("requests").size(), traced.size(), marked, whole,
                kernel.get("lossWindows").asLong(), tracerOut.strip().replace("\n", " | "));
        assertThat(marked).as("requests marked").isPositive();
        long flagged = 0;
        for (JsonNode r : report.get("requests")) {
            flagged += r.get("kernelIncomplete").asBoolean() ? 1 : 0;
        }
        assertThat(kernel.get("incompleteRequests").asLong()).isEqualTo(flagged);
        assertThat(kernel.get("notes").toString()).contains(kernel.get("incompleteRequests").asLong()
                + " request(s) overlap lost eBPF records: their off-CPU figures are incomplete")
                .doesNotContain("no loss record places in time");
    }

    // Issue 6's pictures of the same Netty run: the offwake flame graph has caller stacks in Mono.block
    // with an event loop on top of the waker side, and the trace has off-CPU slices the event loops ended.
    private void picturesShowEventLoopsWakingCallers() throws Exception {
        long t0 = System.nanoTime();
        String jfr = dir.resolve("netty.jfr").toString();
        String events = dir.resolve("netty.jsonl").toString();
        Cli flame = Cli.run("flame", jfr, "--kind", "offwake", "--bpf", events, "--format", "folded");
        assertThat(flame.exitCode()).as(flame.err()).isZero();
        long callerByLoopNanos = 0;
        for (String line : flame.out().lines().toList()) {
            String[] frames = line.substring(0, line.lastIndexOf(' ')).split(";");
            if (frames[1].startsWith("pipeline-caller") && frames[2].equals("wait Mono.block")
                    && List.of(frames).contains("--") && frames[frames.length - 1].startsWith("reactor-http-ep")) {
                callerByLoopNanos += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        assertThat(callerByLoopNanos).as("offwake flame: caller in Mono.block -- woken by an event loop").isPositive();
        Cli trace = Cli.run("trace", jfr, "--bpf", events);
        assertThat(trace.exitCode()).as(trace.err()).isZero();
        JsonNode t = new ObjectMapper().readTree(trace.out());
        assertThat(io.hopscope.analyzer.testing.TraceSchema.check(t)).isEmpty();
        long slices = 0;
        for (JsonNode e : t.get("traceEvents")) {
            if ("offcpu".equals(e.path("cat").asText()) && e.get("name").asText().startsWith("off-CPU")
                    && "Mono.block".equals(e.path("args").path("during").asText())
                    && e.path("args").path("waker").asText("").startsWith("reactor-http-ep")) {
                slices++;
            }
        }
        assertThat(slices).as("trace: off-CPU slices in Mono.block ended by an event loop").isPositive();
        System.out.printf("netty pictures: offwake flame %.1f ms caller <- event loop in Mono.block; trace %d such"
                + " off-CPU slices (%.1f s for both)%n", callerByLoopNanos / 1e6, slices, (System.nanoTime() - t0) / 1e9);
    }

    /**
     * Runs the sample under the agent, attaches offwake once the JVM is up (after its first output
     * line when {@code waitForOutput}, else at once: the sample's warmup covers offwake's start), lets
     * offwake end with the process, and returns {@code report --bpf --format json}.
     */
    JsonNode traced(String label, String agentOptions, boolean waitForOutput, String... sampleArgs) throws Exception {
        // Kernel stacks only: they say whether an interrupt did the wake; naming user stacks
        // (perf map, symbol tables) would take longer than the run and is not what is checked. Every
        // interval's stacks: the folded file's per-name totals are checked on runs of a few hundred
        // wakes, which one in eight (the default) would leave to chance.
        String tracerOut = run(label, agentOptions, waitForOutput, List.of("--stacks", "kernel", "--stack-every", "1",
                "--folded", dir.resolve(label + ".folded").toString()), sampleArgs);
        assertThat(tracerOut).contains("lost 0 events");
        return report(label);
    }

    JsonNode report(String label) throws Exception {
        Cli r = Cli.run("report", dir.resolve(label + ".jfr").toString(), "--bpf", dir.resolve(label + ".jsonl").toString(),
                "--format", "json", "--sort", "start", "--top", "all");
        assertThat(r.exitCode()).as(r.err()).isZero();
        return new ObjectMapper().readTree(r.out());
    }

    /** Runs the sample under the agent and offwake (with {@code tracerArgs}) as {@link #traced} says; returns offwake's log. */
    /** Times the next run() stops offwake for 300 ms once it traces (0: never). */
    private int stalls;

    String run(String label, String agentOptions, boolean waitForOutput, List<String> tracerArgs, String... sampleArgs)
            throws Exception {
        int stallsNow = stalls;
        stalls = 0;
        Path jfr = dir.resolve(label + ".jfr");
        Path events = dir.resolve(label + ".jsonl");
        Path log = dir.resolve(label + ".log");
        // The JVM's defaults, not Paths.shortJvm: this test's time is offwake's and its fixed run lengths,
        // not the JIT's, and its lossy run is the one whose timing it was written against.
        List<String> cmd = new ArrayList<>(List.of(Paths.java().toString(),
                "-javaagent:" + agent + "=jfr=" + jfr + (agentOptions != null ? "," + agentOptions : ""),
                "-jar", samples.toString()));
        cmd.addAll(List.of(sampleArgs));
        Process jvm = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Process tracer = null;
        try {
            if (waitForOutput) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!firstRequestDone(log) && jvm.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
            }
            long t0 = System.nanoTime();
            assertThat(jvm.isAlive()).as("the sample ended before offwake could attach: " + Files.readString(log)).isTrue();
            Path tracerLog = dir.resolve(label + ".offwake.log");
            List<String> tracerCmd = new ArrayList<>(List.of(PYTHON, offwake.toString(), "-p", Long.toString(jvm.pid()),
                    "--events", events.toString()));
            tracerCmd.addAll(tracerArgs);
            tracer = new ProcessBuilder(tracerCmd).redirectErrorStream(true).redirectOutput(tracerLog.toFile()).start();
            if (stallsNow > 0) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!(Files.exists(tracerLog) && Files.readString(tracerLog).contains("Ctrl-C to end."))
                        && tracer.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                for (int k = 0; k < stallsNow && jvm.isAlive(); k++) {
                    signal(tracer, "-STOP");
                    Thread.sleep(300);
                    signal(tracer, "-CONT");
                    Thread.sleep(200);
                }
            }
            assertThat(jvm.waitFor(90, TimeUnit.SECONDS)).isTrue();
            assertThat(jvm.exitValue()).as(Files.readString(log)).isZero();
            assertThat(tracer.waitFor(30, TimeUnit.SECONDS)).as("offwake ends with its target").isTrue();
            String tracerOut = Files.readString(tracerLog);
            System.out.printf("%s: %.1f s traced: %s%n", label, (System.nanoTime() - t0) / 1e9,
                    tracerOut.strip().replace("\n", " | "));
            assertThat(tracer.exitValue()).as(tracerOut).isZero();
            return tracerOut;
        } finally {
            jvm.destroyForcibly();
            if (tracer != null) {
                tracer.destroy();
            }
        }
    }

    private static void signal(Process p, String signal) throws Exception {
        assertThat(new ProcessBuilder("kill", signal, Long.toString(p.pid())).start().waitFor()).isZero();
    }

    private static boolean firstRequestDone(Path log) throws IOException {
        return Files.exists(log) && Files.readString(log).lines().anyMatch(l -> l.contains("request"));
    }
}
