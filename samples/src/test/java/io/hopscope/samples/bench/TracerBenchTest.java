package io.hopscope.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The eBPF row from switchcost.py --empty's output: every round's offwake beside that round's floor. */
class TracerBenchTest {

    private static final Path OUT = Path.of("switchcost.txt");

    @Test
    void eachRoundPairsOffwakeWithTheFloorOfTheSameRound() {
        String output = """
                ping-pong on CPU 1; tracer (defaults)
                round 1  bpf/offwake.py           untraced   2145 ns/handoff  traced   3708  cost  +1562 ns per interval  (lost 2+0+0)
                round 1  empty programs           untraced   1951 ns/handoff  traced   2568  cost   +617 ns per interval  (lost 0+0+0)
                round 2  bpf/offwake.py           untraced   2045 ns/handoff  traced   3000  cost   +955 ns per interval  (lost 0+0+1)
                round 2  empty programs           untraced   2000 ns/handoff  traced   2700  cost   +700 ns per interval  (lost 0+0+0)
                bpf/offwake.py           median cost +1258 ns per interval (rounds: +1562, +955)
                empty programs           median cost +658 ns per interval (rounds: +617, +700)
                """;
        TracerBench.Result r = TracerBench.parse(output, 0, OUT);

        assertThat(r.whyNot()).isNull();
        assertThat(r.rounds()).containsExactly(new TracerBench.Round(1, 1562, 617, 2), new TracerBench.Round(2, 955, 700, 1));
        // Above the floor of its own round: 945 and 255, not the difference of the medians.
        assertThat(r.aboveFloorNs()).isEqualTo(600.0);
        assertThat(r.costNsPerInterval()).isEqualTo(1258.5);
        assertThat(r.floorNsPerInterval()).isEqualTo(658.5);
        assertThat(r.lostEvents()).isEqualTo(3);
        assertThat(BenchText.tracerLine(r)).contains("+1562 / +617 / +945 (2 lost), +955 / +700 / +255 (1 lost)")
                .contains("offwake above the floor of its round +600 (medians)");
        assertThat(Targets.tracer(r).get(0).status()).isEqualTo("not met by 300.0 ns");
    }

    @Test
    void aFailedRunOrOneWithoutTheFloorIsNotMeasuredAndSaysWhy() {
        String noFloor = "round 1  bpf/offwake.py           untraced   2145 ns/handoff  traced   3708  cost  +1562 ns per interval\n";
        assertThat(TracerBench.parse(noFloor, 0, OUT).whyNot()).startsWith("switchcost.py exited 0: round 1");
        TracerBench.Result failed = TracerBench.parse("switchcost: must run as root\n", 2, OUT);
        assertThat(failed.whyNot()).isEqualTo("switchcost.py exited 2: switchcost: must run as root (see switchcost.txt)");
        assertThat(failed.aboveFloorNs()).isNull();
        assertThat(Targets.tracer(failed).get(0).status()).startsWith("not measured: switchcost.py exited 2");
    }
}
