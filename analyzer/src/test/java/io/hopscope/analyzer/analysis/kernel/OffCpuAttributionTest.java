package io.hopscope.analyzer.analysis.kernel;

import static io.hopscope.analyzer.testing.KernelFixture.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KernelFixture;
import io.hopscope.analyzer.testing.KernelRecordingTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** report --bpf on a recording with known places and hand-made offwake intervals with known answers. */
class OffCpuAttributionTest extends KernelRecordingTest {

    static JsonNode json(String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("report", jfr.toString(), "--bpf", events.toString(),
                "--format", "json", "--sort", "start"));
        args.addAll(List.of(extra));
        Cli r = Cli.run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return new ObjectMapper().readTree(r.out());
    }

    static JsonNode request(JsonNode report, long id) {
        for (JsonNode r : report.get("requests")) {
            if (r.get("id").asLong() == id) {
                return r;
            }
        }
        throw new AssertionError("no request " + id);
    }

    @Test
    void intervalsInsideTheWaitAreWhatTheWaitCostInTheKernel() throws Exception {
        JsonNode r = request(json(), 1);
        // 20 + 2 ms in the wait, 3 ms preempted in the first segment; the interval before it is not counted.
        assertThat(r.get("offCpuNanos").asLong()).isEqualTo(25 * MS);
        assertThat(r.get("runQueueNanos").asLong()).isEqualTo(2 * MS + 500_000 + 3 * MS);
        assertThat(r.get("contextSwitches").asLong()).isEqualTo(3);
        // One futex call that went off CPU twice is one futex wait.
        assertThat(r.get("futexWaits").asLong()).isEqualTo(1);
        JsonNode during = r.get("kernelDuring");
        assertThat(during).hasSize(2);
        assertThat(during.get(0).get("during").asText()).isEqualTo("Mono.block");
        assertThat(during.get(0).get("offCpuNanos").asLong()).isEqualTo(22 * MS);
        assertThat(during.get(0).get("contextSwitches").asLong()).isEqualTo(2);
        assertThat(during.get(0).get("futexWaits").asLong()).isEqualTo(1);
        assertThat(during.get(1).get("during").asText()).isEqualTo("segment");
        assertThat(during.get(1).get("offCpuNanos").asLong()).isEqualTo(3 * MS);
        assertThat(during.get(1).get("runQueueNanos").asLong()).isEqualTo(3 * MS);
    }

    @Test
    void wakersAreNamedFromTheRecordingAndInterruptsAreMarked() throws Exception {
        JsonNode wakers = request(json(), 1).get("wakers");
        assertThat(wakers).hasSize(2);
        JsonNode loop = wakers.get(0).get("waker").asText().equals("kj-loop") ? wakers.get(0) : wakers.get(1);
        JsonNode irq = loop == wakers.get(0) ? wakers.get(1) : wakers.get(0);
        assertThat(loop.get("waker").asText()).isEqualTo("kj-loop");
        assertThat(loop.get("thread").asText()).isEqualTo("kj-caller");
        assertThat(loop.get("during").asText()).isEqualTo("Mono.block");
        assertThat(loop.get("count").asLong()).isEqualTo(1);
        assertThat(loop.get("futexWakes").asLong()).isEqualTo(1);
        assertThat(loop.get("offCpuNanos").asLong()).isEqualTo(20 * MS);
        assertThat(loop.get("runQueueNanos").asLong()).isEqualTo(2 * MS);
        assertThat(loop.get("topStacks").get(0).get("frames").toString()).isEqualTo("[\"Waker.wake\",\"Loop.run\"]");
        assertThat(irq.get("waker").asText()).isEqualTo("swapper/0 [hardirq]");
        assertThat(irq.get("futexWakes").asLong()).isZero();
        // The interrupt did the last wakeup inside the wait, so it is what ended it.
        assertThat(irq.get("waitsEnded").asLong()).isEqualTo(1);
        assertThat(loop.get("waitsEnded").asLong()).isZero();
    }

    @Test
    void otherRequestsAndTheSummaryGetTheirShare() throws Exception {
        JsonNode report = json();
        JsonNode r2 = request(report, 2);
        assertThat(r2.get("offCpuNanos").asLong()).isEqualTo(4 * MS);
        assertThat(r2.get("runQueueNanos").asLong()).isZero();
        assertThat(r2.get("contextSwitches").asLong()).isEqualTo(1);
        assertThat(r2.get("wakers").get(0).get("waker").asText()).isEqualTo("kj-caller");
        JsonNode s = report.get("summary").get(0);
        assertThat(s.get("name").asText()).isEqualTo(KernelFixture.NAME);
        assertThat(s.get("meanOffCpuNanos").asDouble()).isCloseTo(14.5 * MS, within(1.0));
        assertThat(s.get("meanContextSwitches").asDouble()).isEqualTo(2.0);
        assertThat(s.get("meanFutexWaits").asDouble()).isEqualTo(0.5);
        JsonNode kernel = report.get("kernel");
        assertThat(kernel.get("format").asText()).isEqualTo("events");
        assertThat(kernel.get("intervals").asLong()).isEqualTo(6);
        assertThat(kernel.get("intervalsInRequests").asLong()).isEqualTo(4);
    }

    @Test
    void textShowsTheKernelPerNameAndPerRequest() {
        Cli r = Cli.run("report", jfr.toString(), "--bpf", events.toString(), "--sort", "start");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("kernel (eBPF, events): " + events + ": 6 off-CPU interval(s), 4 in requests")
                .contains("kernel: off-CPU 25.00 ms, run queue 5.50 ms, 3 context switch(es), 1 futex wait(s)")
                .contains("woken by kj-loop: kj-caller in Mono.block, 1x (1 futex wake(s)); 20.00 ms off-CPU before,"
                        + " run queue 2.00 ms after")
                .contains("woken by swapper/0 [hardirq]: kj-caller in Mono.block, 1x (0 futex wake(s), ended 1 wait(s))")
                // The blind spots the kernel sees: off-CPU time in segments, outside the agent's waits.
                .contains("unexplained off-CPU: 3.00 ms in its segments, waker not seen")
                .contains("unexplained off-CPU: 4.00 ms in its segments, woken by kj-caller -> kj-loop in segment (1)");
    }

    @Test
    void lostRecordsInTheTracersSummaryMarkTheKernelFiguresIncomplete() throws Exception {
        Path lossy = dir.resolve("lossy.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(events));
        lines.add("{\"summary\":{\"intervals\":6,\"futex_waits\":2,\"missed_stacks\":0,\"lost_records\":256,"
                + "\"lost_intervals\":3,\"lost_futex_calls\":0,\"target_exited\":false}}");
        Files.write(lossy, lines);
        Cli r = Cli.run("report", jfr.toString(), "--bpf", lossy.toString(), "--format", "json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode k = new ObjectMapper().readTree(r.out()).get("kernel");
        // The summary line is not an interval.
        assertThat(k.get("intervals").asLong()).isEqualTo(6);
        assertThat(k.get("notes").toString()).contains(lossy + ": incomplete: the tracer lost 256 record(s) "
                + "(ring buffer full), 3 interval(s) and 0 futex call(s) (thread map full)");
        Cli text = Cli.run("report", jfr.toString(), "--bpf", lossy.toString());
        assertThat(text.out()).contains("note: " + lossy + ": incomplete: the tracer lost 256 record(s)");

        // A summary with nothing lost says nothing.
        Path whole = dir.resolve("whole.jsonl");
        lines.set(lines.size() - 1, "{\"summary\":{\"intervals\":6,\"lost_records\":0,\"lost_intervals\":0,"
                + "\"lost_futex_calls\":0}}");
        Files.write(whole, lines);
        Cli clean = Cli.run("report", jfr.toString(), "--bpf", whole.toString(), "--format", "json");
        assertThat(clean.exitCode()).as(clean.err()).isZero();
        assertThat(new ObjectMapper().readTree(clean.out()).get("kernel").get("notes").toString())
                .doesNotContain("incomplete");
    }

    /** A loss record, in CLOCK_MONOTONIC as offwake writes it. */
    static String loss(long records, long fromNanos, long toNanos) {
        return "{\"lost\":{\"records\":" + records + ",\"from_ns\":" + fromNanos + ",\"to_ns\":" + toNanos + "}}";
    }

    static String summary(long lostRecords) {
        return "{\"summary\":{\"intervals\":6,\"futex_waits\":2,\"missed_stacks\":0,\"lost_records\":" + lostRecords
                + ",\"lost_intervals\":0,\"lost_futex_calls\":0,\"target_exited\":false}}";
    }

    /** The fixture's intervals, then these loss records and a summary counting what they hold. */
    static Path withLosses(String file, long... windows) throws Exception {
        List<String> lines = new ArrayList<>(fixture.events());
        long lost = 0;
        for (int i = 0; i < windows.length; i += 2) {
            lines.add(loss(100 + i, windows[i], windows[i + 1]));
            lost += 100 + i;
        }
        lines.add(summary(lost));
        return Files.write(dir.resolve(file), lines);
    }

    static JsonNode jsonOf(Path bpf, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("report", jfr.toString(), "--bpf", bpf.toString(), "--format", "json"));
        args.addAll(List.of(extra));
        Cli r = Cli.run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return new ObjectMapper().readTree(r.out());
    }

    @Test
    void lossRecordsMarkExactlyTheRequestsWhosePlacesTheyOverlap() throws Exception {
        // Inside request 1's wait, and before every place (where the fixture has an interval of no request).
        Path inWait = withLosses("in-wait.jsonl", fixture.waitStart + 40 * MS, fixture.waitStart + 41 * MS,
                fixture.loopSegStart - 300 * MS, fixture.loopSegStart - 299 * MS);
        JsonNode report = jsonOf(inWait);
        assertThat(request(report, 1).get("kernelIncomplete").asBoolean()).isTrue();
        assertThat(request(report, 2).get("kernelIncomplete").asBoolean()).isFalse();
        // Marked, not changed: the figures are what was recorded.
        assertThat(request(report, 1).get("offCpuNanos").asLong()).isEqualTo(25 * MS);
        JsonNode k = report.get("kernel");
        assertThat(k.get("lossWindows").asLong()).isEqualTo(2);
        assertThat(k.get("incompleteRequests").asLong()).isEqualTo(1);
        assertThat(report.get("summary").get(0).get("kernelIncompleteRequests").asLong()).isEqualTo(1);
        assertThat(k.get("notes")).hasSize(1);
        assertThat(k.get("notes").get(0).asText()).isEqualTo(inWait + ": 1 request(s) overlap lost eBPF records: their "
                + "off-CPU figures are incomplete (marked; lower bounds): the tracer lost 202 record(s) (ring buffer full) "
                + "in 2 window(s) (trace again with a larger --buffer-pages)");

        // Inside request 2's only segment, on another thread: request 2 alone.
        JsonNode loop = jsonOf(withLosses("in-loop.jsonl", fixture.loopSegStart + 10 * MS, fixture.loopSegStart + 11 * MS));
        assertThat(request(loop, 1).get("kernelIncomplete").asBoolean()).isFalse();
        assertThat(request(loop, 2).get("kernelIncomplete").asBoolean()).isTrue();
        assertThat(loop.get("kernel").get("incompleteRequests").asLong()).isEqualTo(1);

        // One window from request 2's segment to request 1's first: both.
        JsonNode both = jsonOf(withLosses("both.jsonl", fixture.loopSegStart + 10 * MS, fixture.seg1Start + MS));
        assertThat(request(both, 1).get("kernelIncomplete").asBoolean()).isTrue();
        assertThat(request(both, 2).get("kernelIncomplete").asBoolean()).isTrue();
        assertThat(both.get("kernel").get("incompleteRequests").asLong()).isEqualTo(2);
        assertThat(both.get("kernel").get("notes").get(0).asText()).contains(": 2 request(s) overlap lost eBPF records");

        // Only before every place: none, and the report still says records were lost.
        JsonNode none = jsonOf(withLosses("before.jsonl", fixture.loopSegStart - 300 * MS, fixture.loopSegStart - 299 * MS));
        assertThat(request(none, 1).get("kernelIncomplete").asBoolean()).isFalse();
        assertThat(request(none, 2).get("kernelIncomplete").asBoolean()).isFalse();
        assertThat(none.get("kernel").get("notes").get(0).asText()).contains(": 0 request(s) overlap lost eBPF records");

        // Without loss records every request is as exact as before.
        assertThat(request(json(), 1).get("kernelIncomplete").asBoolean()).isFalse();
        assertThat(json().get("kernel").get("incompleteRequests").asLong()).isZero();
    }

    /** The fixture's intervals, then one loss record of these threads (null: any thread) and its summary. */
    static Path withThreadLoss(String file, long fromNanos, long toNanos, String tids) throws Exception {
        List<String> lines = new ArrayList<>(fixture.events());
        lines.add("{\"lost\":{\"records\":40,\"from_ns\":" + fromNanos + ",\"to_ns\":" + toNanos + ",\"tids\":" + tids + "}}");
        lines.add(summary(40));
        return Files.write(dir.resolve(file), lines);
    }

    @Test
    void aLossWindowMarksOnlyTheRequestsOfTheThreadsItNames() throws Exception {
        // One window over both requests' places in time (request 2 on kj-loop, then request 1 on kj-caller).
        long from = fixture.loopSegStart + 10 * MS;
        long to = fixture.seg1Start + MS;
        JsonNode loopOnly = jsonOf(withThreadLoss("loop-only.jsonl", from, to, "[" + fixture.loopTid + "]"));
        assertThat(request(loopOnly, 1).get("kernelIncomplete").asBoolean()).isFalse();
        assertThat(request(loopOnly, 2).get("kernelIncomplete").asBoolean()).isTrue();
        assertThat(loopOnly.get("kernel").get("incompleteRequests").asLong()).isEqualTo(1);

        JsonNode callerOnly = jsonOf(withThreadLoss("caller-only.jsonl", from, to, "[" + fixture.callerTid + "]"));
        assertThat(request(callerOnly, 1).get("kernelIncomplete").asBoolean()).isTrue();
        assertThat(request(callerOnly, 2).get("kernelIncomplete").asBoolean()).isFalse();

        // A thread of no request (a GC or JFR thread asleep through the window): nothing marked, still noted.
        JsonNode stranger = jsonOf(withThreadLoss("stranger.jsonl", from, to, "[999999999]"));
        assertThat(request(stranger, 1).get("kernelIncomplete").asBoolean()).isFalse();
        assertThat(request(stranger, 2).get("kernelIncomplete").asBoolean()).isFalse();
        assertThat(stranger.get("kernel").get("notes").get(0).asText()).contains(": 0 request(s) overlap lost eBPF records")
                .contains("the tracer lost 40 record(s)");

        // Any thread (more threads than the tracer names): both, as a window of an older offwake.
        for (String any : List.of("null", "missing")) {
            Path file = withThreadLoss("any-" + any + ".jsonl", from, to, "null");
            if (any.equals("missing")) {
                Files.writeString(file, Files.readString(file).replace(",\"tids\":null", ""));
            }
            JsonNode all = jsonOf(file);
            assertThat(request(all, 1).get("kernelIncomplete").asBoolean()).as(any).isTrue();
            assertThat(request(all, 2).get("kernelIncomplete").asBoolean()).as(any).isTrue();
        }
    }

    @Test
    void aLossRecordWhoseTidsAreNotThreadIdsIsOneLine() throws Exception {
        Path bad = withThreadLoss("bad-tids.jsonl", fixture.seg1Start, fixture.seg1Start + MS, "[\"kj-caller\"]");
        Cli r = Cli.run("report", jfr.toString(), "--bpf", bad.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("hopscope: " + bad + ": line 7: a loss record's tids are not thread ids");
    }

    @Test
    void textMarksAnIncompleteRequestsFiguresAsLowerBoundsAndCountsThemPerName() throws Exception {
        Path inWait = withLosses("in-wait-text.jsonl", fixture.waitStart + 40 * MS, fixture.waitStart + 41 * MS);
        Cli r = Cli.run("report", jfr.toString(), "--bpf", inWait.toString(), "--sort", "start");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("note: " + inWait + ": 1 request(s) overlap lost eBPF records: their off-CPU figures are incomplete")
                .contains("kernel (INCOMPLETE: overlaps lost eBPF records; lower bounds): off-CPU >= 25.00 ms, run queue "
                        + ">= 5.50 ms, >= 3 context switch(es), >= 1 futex wait(s)")
                .containsPattern("in Mono.block +off-CPU >= 22.00 ms, run queue >= 2.50 ms, >= 2 switch")
                // Request 2 is exact.
                .contains("  kernel: off-CPU 4.00 ms, run queue 0 ns, 1 context switch(es), 0 futex wait(s)")
                .containsPattern("(?m)^" + KernelFixture.NAME + " +2/1 ")
                .contains("a count N/M: M of the N requests overlap lost eBPF records");
    }

    @Test
    void lostRecordsNoLossRecordPlacesLeaveTheWholeFileIncomplete() throws Exception {
        // The summary counts 28 more than the loss records hold: those could be anywhere.
        Path partly = dir.resolve("partly.jsonl");
        List<String> lines = new ArrayList<>(fixture.events());
        lines.add(loss(100, fixture.waitStart + 40 * MS, fixture.waitStart + 41 * MS));
        lines.add(summary(128));
        Files.write(partly, lines);
        JsonNode k = jsonOf(partly).get("kernel");
        assertThat(k.get("incompleteRequests").asLong()).isEqualTo(1);
        assertThat(k.get("notes").toString()).contains(partly + ": incomplete: the tracer lost 28 record(s) (ring buffer "
                + "full) that no loss record places in time, 0 interval(s) and 0 futex call(s) (thread map full); the "
                + "kernel figures of any request may be too low");
    }

    @Test
    void aBadLossRecordIsOneLineNamingIt() throws Exception {
        Path bad = dir.resolve("bad-loss.jsonl");
        List<String> lines = new ArrayList<>(fixture.events());
        lines.add(loss(3, 2_000, 1_000));
        Files.write(bad, lines);
        Cli r = Cli.run("report", jfr.toString(), "--bpf", bad.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("hopscope: " + bad + ": line 7: a loss record with to_ns before from_ns "
                + "or a negative count");
        lines.set(6, "{\"lost\":{\"records\":3,\"from_ns\":1000}}");
        Files.write(bad, lines);
        Cli missing = Cli.run("report", jfr.toString(), "--bpf", bad.toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains(bad + ": line 7: no integer field to_ns").doesNotContain("Exception");
    }

    @Test
    void diffCountsTheRequestsWithLostRecordsPerName() throws Exception {
        Path inWait = withLosses("in-wait-diff.jsonl", fixture.waitStart + 40 * MS, fixture.waitStart + 41 * MS);
        Cli r = Cli.run("diff", jfr.toString(), jfr.toString(), "--bpf-a", inWait.toString(),
                "--bpf-b", events.toString(), "--format", "json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode found = null;
        for (JsonNode row : new ObjectMapper().readTree(r.out()).get("rows")) {
            if (row.get("metric").asText().equals("requests with lost eBPF records")) {
                found = row;
            }
        }
        assertThat(found).isNotNull();
        assertThat(found.get("a").asDouble()).isEqualTo(1.0);
        assertThat(found.get("b").asDouble()).isZero();
        // Without loss on either side, no such row.
        Cli clean = Cli.run("diff", jfr.toString(), jfr.toString(), "--bpf-a", events.toString(),
                "--bpf-b", events.toString());
        assertThat(clean.out()).doesNotContain("lost eBPF records");
    }

    @Test
    void sampledStacksLeaveEveryFigureExactAndWeighTheWakerStacks() throws Exception {
        Path sampled = Files.write(dir.resolve("sampled.jsonl"), fixture.sampledEvents(4));
        JsonNode all = json();
        Cli r = Cli.run("report", jfr.toString(), "--bpf", sampled.toString(), "--format", "json", "--sort", "start");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode report = new ObjectMapper().readTree(r.out());
        assertThat(report.get("kernel").get("stackEvery").asLong()).isEqualTo(4);
        assertThat(all.get("kernel").get("stackEvery").asLong()).isEqualTo(1);
        // Times, switches, futex waits and wakers come from every interval, sampled or not.
        for (long id : new long[] {1, 2}) {
            JsonNode a = request(all, id);
            JsonNode s = request(report, id);
            for (String field : List.of("offCpuNanos", "runQueueNanos", "contextSwitches", "futexWaits", "kernelDuring")) {
                assertThat(s.get(field)).as(field).isEqualTo(a.get(field));
            }
            assertThat(s.get("wakers")).hasSameSizeAs(a.get("wakers"));
        }
        assertThat(report.get("summary")).isEqualTo(all.get("summary"));
        // The sampled wake's stack stands for 4 wakes; the unsampled interrupt wake has no stack to show.
        JsonNode wakers = request(report, 1).get("wakers");
        for (JsonNode w : wakers) {
            if (w.get("waker").asText().equals("kj-loop")) {
                assertThat(w.get("count").asLong()).isEqualTo(1);
                assertThat(w.get("topStacks").get(0).get("frames").toString()).isEqualTo("[\"Waker.wake\",\"Loop.run\"]");
                assertThat(w.get("topStacks").get(0).get("count").asLong()).isEqualTo(4);
            } else {
                assertThat(w.get("waitsEnded").asLong()).isEqualTo(1);
                assertThat(w.get("topStacks")).isEmpty();
            }
        }
        Cli text = Cli.run("report", jfr.toString(), "--bpf", sampled.toString(), "--sort", "start");
        assertThat(text.out()).contains("sampled: stacks of 1 interval in 4 (offwake --stack-every 4), each weighted x4"
                + " in flame graphs and waker stacks; times exact");
        assertThat(Cli.run("report", jfr.toString(), "--bpf", events.toString()).out()).doesNotContain("sampled:");
    }

    @Test
    void aStackWeightThatIsNotACountIsOneLine() throws Exception {
        Path bad = Files.writeString(dir.resolve("badweight.jsonl"), fixture.sampledEvents(4).get(0)
                .replace("\"stack_weight\":4", "\"stack_weight\":-4") + "\n");
        Cli r = Cli.run("report", jfr.toString(), "--bpf", bad.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("hopscope: " + bad + ": line 1: stack_weight is not a count of intervals"
                + " (an integer >= 0)");
    }

    @Test
    void withoutBpfTheReportHasNoKernelFields() throws Exception {
        Cli r = Cli.run("report", jfr.toString(), "--format", "json");
        assertThat(r.exitCode()).isZero();
        JsonNode report = new ObjectMapper().readTree(r.out());
        assertThat(report.has("kernel")).isFalse();
        assertThat(report.get("requests").get(0).has("offCpuNanos")).isFalse();
    }

    @Test
    void foldedInputGivesThreadNamesOnlyAndSaysSo() throws Exception {
        Path folded = dir.resolve("kj.folded");
        Files.write(folded, List.of(
                "kj-caller;[unknown];entry_SYSCALL_64;schedule;--;try_to_wake_up;futex_wake;Loop.run;kj-loop 1500",
                "kj-caller;[Missed User Stack];schedule;--;try_to_wake_up;kj-loop 500",
                // bcc 0.26's offwaketime writes the stack id into a missed stack's frame, after a space.
                "kj-caller;[Missed User Stack] -14;schedule;--;try_to_wake_up;[Missed User Stack];kj-loop 250",
                "kj-loop;[unknown];schedule;--; 7"));
        Cli r = Cli.run("report", jfr.toString(), "--bpf", folded.toString(), "--format", "json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode report = new ObjectMapper().readTree(r.out());
        JsonNode k = report.get("kernel");
        assertThat(k.get("format").asText()).isEqualTo("folded");
        assertThat(k.get("perRequest").asBoolean()).isFalse();
        assertThat(k.get("notes").get(0).asText()).contains("no per-request figures");
        assertThat(k.get("threadNames").get(0).toString())
                .isEqualTo("{\"wakee\":\"kj-caller\",\"waker\":\"kj-loop\",\"totalMicros\":2250,\"records\":3}");
        assertThat(k.get("threadNames").get(1).get("waker").asText()).isEqualTo("(no waker)");
        assertThat(report.get("requests").get(0).has("offCpuNanos")).isFalse();
        Cli text = Cli.run("report", jfr.toString(), "--bpf", folded.toString());
        assertThat(text.out()).contains("note: folded offwaketime output has no timestamps")
                .doesNotContain("  kernel: off-CPU");
    }

    @Test
    void diffAddsTheKernelMeansPerName() throws Exception {
        Cli r = Cli.run("diff", jfr.toString(), jfr.toString(), "--bpf-a", events.toString(),
                "--bpf-b", events.toString(), "--format", "json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode rows = new ObjectMapper().readTree(r.out()).get("rows");
        List<String> metrics = new ArrayList<>();
        for (JsonNode row : rows) {
            if (row.get("metric").asText().equals("off-CPU/request")) {
                assertThat(row.get("a").asDouble()).isCloseTo(14.5 * MS, within(1.0));
                assertThat(row.get("ratio").asDouble()).isEqualTo(1.0);
            }
            metrics.add(row.get("metric").asText());
        }
        assertThat(metrics).contains("off-CPU/request", "run queue/request", "context switches/request", "futex waits/request");
    }
}
