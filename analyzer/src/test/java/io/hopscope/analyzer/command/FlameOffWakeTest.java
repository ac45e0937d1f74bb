package io.hopscope.analyzer.command;

import static io.hopscope.analyzer.testing.KernelFixture.MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KernelFixture;
import io.hopscope.analyzer.testing.KernelRecordingTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code flame --kind offwake}: hand-made offwake intervals in known places, so each stack's weight is known. */
class FlameOffWakeTest extends KernelRecordingTest {

    static List<String> folded(String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("flame", jfr.toString(), "--kind", "offwake", "--bpf",
                events.toString(), "--format", "folded"));
        args.addAll(List.of(extra));
        Cli r = Cli.run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.out().lines().toList();
    }

    @Test
    void wakeeStackThenSeparatorThenWakerStackWeightedByTimeInTheRequest() {
        List<String> lines = folded();
        // kj-caller in Mono.block, woken by kj-loop's futex wake: 20 ms; the wakee's frames root first, the
        // waker's from the wake (leaf) down to its root, its name on top.
        assertThat(lines).contains("kj;kj-caller;wait Mono.block;__schedule;--;try_to_wake_up;futex_wake;Waker.wake;"
                + "Loop.run;kj-loop " + 20 * MS);
        assertThat(lines).contains("kj;kj-caller;wait Mono.block;__schedule;--;try_to_wake_up;futex_wake;Waker.wake;"
                + "Loop.run;swapper/0 [hardirq] " + 2 * MS);
        // Preempted in the first segment: nothing woke it.
        assertThat(lines).contains("kj;kj-caller;segment;__schedule;--;(no waker) " + 3 * MS);
        assertThat(lines).contains("kj;kj-loop;segment;__schedule;--;try_to_wake_up;futex_wake;Waker.wake;"
                + "Loop.run;kj-caller " + 4 * MS);
        // The interval before any request and the unknown thread are not drawn: 29 ms in all.
        assertThat(lines).hasSize(4);
        assertThat(lines.stream().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum())
                .isEqualTo(29 * MS);
    }

    @Test
    void sampledStacksAreWeighedByTheirSamplingAndTheTitleSaysSo() throws Exception {
        Path sampled = Files.write(dir.resolve("sampled.jsonl"), KernelFixture.record(dir.resolve("s.jfr"), true)
                .sampledEvents(4));
        Cli r = Cli.run("flame", dir.resolve("s.jfr").toString(), "--kind", "offwake", "--bpf", sampled.toString(),
                "--format", "folded");
        assertThat(r.exitCode()).as(r.err()).isZero();
        // The sampled wake stands for 4 such wakes; the preempted interval, never sampled, for itself; the
        // unsampled ones (the interrupt's wake, kj-loop's interval) are not drawn.
        assertThat(r.out().lines().toList()).containsExactly(
                "kj;kj-caller;segment;__schedule;--;(no waker) " + 3 * MS,
                "kj;kj-caller;wait Mono.block;__schedule;--;try_to_wake_up;futex_wake;Waker.wake;Loop.run;kj-loop "
                        + 4 * 20 * MS);
        assertThat(r.err()).contains("note: " + sampled + ": stacks of 1 interval in 4 (offwake --stack-every 4)");
        Cli html = Cli.run("flame", dir.resolve("s.jfr").toString(), "--kind", "offwake", "--bpf", sampled.toString());
        assertThat(html.out()).contains("hopscope offwake (ns): all requests; stacks of 1 interval in 4");
    }

    @Test
    void requestSelectsOneRequest() {
        List<String> lines = folded("--request", "2");
        assertThat(lines).containsExactly("kj;kj-loop;segment;__schedule;--;try_to_wake_up;futex_wake;Waker.wake;"
                + "Loop.run;kj-caller " + 4 * MS);
        assertThat(folded("--name", "other*")).isEmpty();
    }

    @Test
    void htmlIsTheConvertersPageWithTheWakerFrames() {
        Cli r = Cli.run("flame", jfr.toString(), "--kind", "offwake", "--bpf", events.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("<canvas").contains("hopscope offwake (ns): all requests")
                // The converter stores frame names prefix-compressed: look for whole names only where they differ.
                .contains(" Waker.wake'").contains(" try_to_wake_up'").contains("wapper/0 [hardirq]'");
    }

    @Test
    void foldedInputIsDrawnWholeAndSaysSoOnStderr() throws Exception {
        Path folded = dir.resolve("kj.folded");
        Files.write(folded, List.of("kj-caller;[unknown];schedule;--;try_to_wake_up;Loop.run;kj-loop 1500",
                "kj-caller;schedule;--; 7"));
        Cli r = Cli.run("flame", jfr.toString(), "--kind", "offwake", "--bpf", folded.toString(), "--name", "kj",
                "--format", "folded");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("cannot be restricted to requests (--name/--request ignored)");
        assertThat(r.out().lines().toList()).containsExactly("kj-caller;[unknown];schedule;--;try_to_wake_up;Loop.run;kj-loop 1500000",
                "kj-caller;schedule;-- 7000");
    }

    @Test
    void badBpfFileIsOneLine() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.jsonl"), "{\"tid\":1}\n");
        Cli r = Cli.run("flame", jfr.toString(), "--kind", "offwake", "--bpf", bad.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("hopscope: " + bad + ": line 1: no integer field off_ns (not offwake --events output?)");
        Cli missing = Cli.run("flame", jfr.toString(), "--kind", "offwake", "--bpf", dir.resolve("none").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("no such file").doesNotContain("Exception");
    }

    @Test
    void recordingWithoutClockSyncIsRefused() throws Exception {
        Path noSync = dir.resolve("nosync.jfr");
        Path ev = KernelFixture.record(noSync, false).writeEvents(dir.resolve("nosync.jsonl"));
        Cli r = Cli.run("flame", noSync.toString(), "--kind", "offwake", "--bpf", ev.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("no hopscope.ClockSync events");
    }
}
