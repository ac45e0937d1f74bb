package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.CiSkip;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.SampleServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
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

    // Kept when a test fails: its recording, offwake's records and both logs are what tells why.
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @BeforeAll
    static void needs() throws Exception {
        samples = Paths.samplesJar();
        agent = Paths.agentJar();
        offwake = Paths.moduleDir().resolve("../bpf/offwake.py").normalize();
        Paths.needJars(samples, agent);
        CiSkip.unless("root".equals(System.getProperty("user.name")), "needs root to load BPF programs");
        // One tracepoint program, the smallest thing that proves bcc, headers and tracefs work here.
        Process p = new ProcessBuilder(PYTHON, "-c", "from bcc import BPF; "
                + "BPF(text='TRACEPOINT_PROBE(sched, sched_switch) { return 0; }')").redirectErrorStream(true).start();
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        String why = new String(p.getInputStream().readAllBytes()).strip();
        CiSkip.unless(done && p.exitValue() == 0, "bcc cannot load a tracepoint program here (run bpf/setup.sh): "
                + (why.isEmpty() ? "" : why.lines().reduce((a, b) -> b).orElse("")));
    }

    @Test
    void knownPathCallerIsWokenByB() throws Exception {
        // Requests until offwake has traced 60 (about 5 s): its start (jcmd, then compiling the program)
        // took 6-16 s on a loaded machine, which a fixed count of requests had to outlast.
        JsonNode report = traced("known-path", "requests=io.hopscope.samples.knownpath.KnownPath#request", 60,
                "known-path", "--count", UNTIL_ENDED, "--pause-ms", "50");
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
        JsonNode netty = traced("netty", null, 0, "pipeline", "--http-client", "netty", "--mode", "sync-over-async",
                "--warmup", "3", "--duration", "2");
        long withFutexInBlock = 0;
        long eventLoopWakes = 0;
        long eventLoopRunQueueNanos = 0;
        long blocksEndedByEventLoop = 0;
        long blocksEndedByOthers = 0;
        long traced = 0;
        // The sample's calls: its server's requests (their other side) are not woken in Mono.block.
        List<JsonNode> nettyCalls = SampleServer.calls(netty.get("requests"));
        for (JsonNode r : nettyCalls) {
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
                nettyCalls.size(), traced, withFutexInBlock, eventLoopWakes, eventLoopRunQueueNanos / 1e3,
                blocksEndedByEventLoop, blocksEndedByOthers);
        assertThat(traced).isGreaterThanOrEqualTo(50);
        assertThat(withFutexInBlock).isGreaterThanOrEqualTo(traced / 2);
        assertThat(eventLoopWakes).isGreaterThanOrEqualTo(traced / 2);
        assertThat(eventLoopRunQueueNanos).isPositive();
        assertThat(blocksEndedByEventLoop).isGreaterThanOrEqualTo(traced / 2);
        assertThat(blocksEndedByOthers).isLessThanOrEqualTo(blocksEndedByEventLoop / 10);
        picturesShowEventLoopsWakingCallers();

        JsonNode okhttp = traced("okhttp", null, 0, "pipeline", "--http-client", "okhttp", "--mode", "sync",
                "--warmup", "3", "--duration", "2");
        long okTraced = 0;
        List<JsonNode> okhttpCalls = SampleServer.calls(okhttp.get("requests"));
        for (JsonNode r : okhttpCalls) {
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
                okhttpCalls.size(), okTraced);
        assertThat(okTraced).isGreaterThanOrEqualTo(50);
    }

    /**
     * Issue 23: offwake losing records for real marks the requests that may miss some. A ring of 8 pages
     * holds one batch, and offwake is stopped three times for 300 ms once it traces, so each stop loses a
     * stretch of records. A known-path request's caller parks in {@code CompletableFuture.get} until B,
     * held 30 ms on the holder's monitor, completes the future: a traced request that is not marked must
     * show that switch out; one whose interval was lost must be marked. A loss window spans from the
     * earliest switch out in the lost batches, and a batch often holds a long sleep of some thread of the
     * JVM, so many requests are marked: in some runs all of them, and then only the marking is checked.
     *
     * <p>The park is the JVM's own record, not assumed: a caller that the scheduler kept off its CPU from
     * the submit to A until B had completed (30 ms in the run queue of a loaded machine) finds the result
     * there and never parks, and that request is whole without a switch in get. Only a request whose
     * caller the JVM saw park in get for 10 ms or more ({@code jdk.ThreadPark}, hopscope.jfc's threshold)
     * must show the switch: a thread that spends that long in a park has left its CPU.
     */
    @Test
    void requestsOverlappingLostRecordsAreMarkedAndTheOthersAreWhole() throws Exception {
        // A ring buffer of one batch, and offwake stopped (SIGSTOP) three times for 300 ms once it traces: its
        // drain, woken at every batch, keeps up otherwise, and each stop loses a stretch of records. 80
        // requests traced: the stops cover the first 18 or so, the rest are whole unless a window reaches them.
        stalls = 3;
        String tracerOut = run("lossy", "requests=io.hopscope.samples.knownpath.KnownPath#request", 80,
                List.of("--stacks", "none", "--buffer-pages", "8"), "known-path", "--count", UNTIL_ENDED,
                "--pause-ms", "50");
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
        // First what the tracer accounted for: every lost record lies in a loss window (a record lost with
        // none would leave a request unmarked below).
        JsonNode kernel = report.get("kernel");
        long flagged = 0;
        for (JsonNode r : report.get("requests")) {
            flagged += r.get("kernelIncomplete").asBoolean() ? 1 : 0;
        }
        assertThat(kernel.get("incompleteRequests").asLong()).isEqualTo(flagged);
        assertThat(kernel.get("notes").toString()).contains(kernel.get("incompleteRequests").asLong()
                + " request(s) overlap lost eBPF records: their off-CPU figures are incomplete")
                .doesNotContain("no loss record places in time");
        List<long[]> parks = callerParksInGet(dir.resolve("lossy.jfr"));
        assertThat(parks.size()).as("known-path-caller's parks in CompletableFuture.get that the JVM recorded")
                .isGreaterThanOrEqualTo(report.get("requests").size() / 2);
        long marked = 0;
        long whole = 0;
        long notParked = 0;
        // The first and last traced requests may have begun before tracing or ended after it.
        for (JsonNode r : traced.subList(1, traced.size() - 1)) {
            if (r.get("kernelIncomplete").asBoolean()) {
                marked++;
                continue;
            }
            whole++;
            long start = r.get("startEpochNanos").asLong();
            long end = start + r.get("durationNanos").asLong();
            if (parks.stream().noneMatch(p -> start <= p[0] && p[1] <= end)) {
                notParked++;
                continue;
            }
            long switchesInGet = 0;
            for (JsonNode d : r.get("kernelDuring")) {
                if (d.get("during").asText().equals("CompletableFuture.get")) {
                    switchesInGet += d.get("contextSwitches").asLong();
                }
            }
            assertThat(switchesInGet).as("request %s is not marked and its caller parked in get, so that switch out"
                    + " is there; its kernel figures: %s; its hops: %s; the run's files are kept in %s", r.get("id"),
                    r.get("kernelDuring"), r.get("hopList"), dir).isPositive();
        }
        System.out.printf("lossy known-path: %d requests, %d traced; inside: %d marked incomplete, %d whole (%d of"
                        + " them with no park of the caller in get); %d loss window(s); %s%n", report.get("requests").size(),
                traced.size(), marked, whole, notParked, kernel.get("lossWindows").asLong(),
                tracerOut.strip().replace("\n", " | "));
        assertThat(marked).as("requests marked").isPositive();
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
     * Runs the sample under the agent and offwake, as {@link #run} says, and returns
     * {@code report --bpf --format json}.
     */
    JsonNode traced(String label, String agentOptions, int tracedRequests, String... sampleArgs) throws Exception {
        // Kernel stacks only: they say whether an interrupt did the wake; naming user stacks
        // (perf map, symbol tables) would take longer than the run and is not what is checked. Every
        // interval's stacks: the folded file's per-name totals are checked on runs of a few hundred
        // wakes, which one in eight (the default) would leave to chance.
        String tracerOut = run(label, agentOptions, tracedRequests, List.of("--stacks", "kernel", "--stack-every", "1",
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

    /** A known-path {@code --count} that no run reaches: {@link #run} ends the sample once enough is traced. */
    static final String UNTIL_ENDED = "1000000";

    /** Times the next run() stops offwake for 300 ms once it traces (0: never); only for a run it ends. */
    private int stalls;

    /**
     * Runs the sample under the agent and offwake (with {@code tracerArgs}); returns offwake's log. With
     * {@code tracedRequests} 0 offwake attaches at once (the sample's warmup covers offwake's start) and
     * the sample ends by itself. Else offwake attaches after the sample's first request, and once offwake
     * traces and the sample has logged that many more requests, the test ends the sample with SIGTERM,
     * whose shutdown writes the recording as a normal exit does: the run lasts as long as offwake's start
     * plus those requests, where a fixed count had to outlast offwake's slowest start. Either way offwake
     * ends with the process.
     */
    String run(String label, String agentOptions, int tracedRequests, List<String> tracerArgs, String... sampleArgs)
            throws Exception {
        int stallsNow = stalls;
        stalls = 0;
        Path jfr = dir.resolve(label + ".jfr");
        Path events = dir.resolve(label + ".jsonl");
        Path log = dir.resolve(label + ".log");
        // The JVM's defaults, not Paths.shortJvm: this test's time is offwake's start and the requests it
        // waits for, not the JIT's, and its lossy run is the one whose timing it was written against.
        List<String> cmd = new ArrayList<>(List.of(Paths.java().toString(),
                "-javaagent:" + agent + "=jfr=" + jfr + (agentOptions != null ? "," + agentOptions : ""),
                "-jar", samples.toString()));
        cmd.addAll(List.of(sampleArgs));
        Process jvm = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Process tracer = null;
        try {
            assertThat(stallsNow == 0 || tracedRequests > 0).as("stalls need a run the test ends").isTrue();
            if (tracedRequests > 0) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (requestsDone(log) == 0 && jvm.isAlive() && System.nanoTime() < deadline) {
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
            if (tracedRequests > 0) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!(Files.exists(tracerLog) && Files.readString(tracerLog).contains("Ctrl-C to end."))
                        && tracer.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                int atStart = requestsDone(log);
                for (int k = 0; k < stallsNow && jvm.isAlive(); k++) {
                    signal(tracer, "-STOP");
                    Thread.sleep(300);
                    signal(tracer, "-CONT");
                    Thread.sleep(200);
                }
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (requestsDone(log) < atStart + tracedRequests && jvm.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertThat(jvm.isAlive()).as("the sample ran until the test ended it: " + Files.readString(log)).isTrue();
                jvm.destroy();
            }
            assertThat(jvm.waitFor(90, TimeUnit.SECONDS)).isTrue();
            // SIGTERM's exit status (128 + 15) when the test ended the sample.
            assertThat(jvm.exitValue()).as(Files.readString(log)).isEqualTo(tracedRequests > 0 ? 143 : 0);
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

    /**
     * Start and end (epoch nanoseconds) of each park of known-path-caller in {@code CompletableFuture.get}
     * that the JVM recorded ({@code jdk.ThreadPark} of a {@code CompletableFuture$Signaller}).
     */
    private static List<long[]> callerParksInGet(Path jfr) throws IOException {
        List<long[]> parks = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            RecordedClass parked = e.getEventType().getName().equals("jdk.ThreadPark") ? e.getClass("parkedClass") : null;
            if (parked != null && parked.getName().equals("java.util.concurrent.CompletableFuture$Signaller")
                    && e.getThread() != null && "known-path-caller".equals(e.getThread().getJavaName())) {
                parks.add(new long[] {epochNanos(e.getStartTime()), epochNanos(e.getEndTime())});
            }
        }
        return parks;
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static void signal(Process p, String signal) throws Exception {
        assertThat(new ProcessBuilder("kill", signal, Long.toString(p.pid())).start().waitFor()).isZero();
    }

    /** Requests the known-path sample has logged so far. */
    private static int requestsDone(Path log) throws IOException {
        return Files.exists(log) ? (int) Files.readString(log).lines().filter(l -> l.startsWith("request: ")).count() : 0;
    }
}
