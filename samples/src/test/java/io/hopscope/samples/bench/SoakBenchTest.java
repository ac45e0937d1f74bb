package io.hopscope.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The soak's figures read from jcmd, and the table and lines it writes (the run itself: bench --soak, once). */
class SoakBenchTest {

    @Test
    void theHeapInUseIsTheWholeHeapsWithoutMetaspace() {
        String g1 = """
                12345:
                 garbage-first heap   total 262144K, used 47716K [0x00000000f0000000, 0x0000000100000000)
                  region size 1024K, 3 young (3072K), 0 survivors (0K)
                 Metaspace       used 23456K, committed 24000K, reserved 1114112K
                """;
        assertThat(SoakBench.usedMb(g1)).isEqualTo(47716 / 1024.0);
        String serial = """
                 def new generation   total 9792K, used 525K [0x00000000f0000000)
                 tenured generation   total 21588K, used 18000K [0x00000000f0a00000)
                """;
        // Serial (live's collector) has no whole-heap line: its generations are added up.
        assertThat(SoakBench.usedMb(serial)).isEqualTo((525 + 18000) / 1024.0);
        assertThat(SoakBench.usedMb("12345:\nnothing")).isNaN();
    }

    @Test
    void theMarkdownHasEveryMinuteAndTheFirstAgainstTheLast() {
        SoakBench.Result r = new SoakBench.Result(3, List.of(
                new SoakBench.Minute(1, 60_000, 40.0, 150.0, 250, 50.0, 320, 42.0, 12.0, 10.0, "1.00 1.00 1.00"),
                new SoakBench.Minute(2, 61_000, 12.0, 140.0, 251, 46.0, 318, 42.1, 14.0, 8.0, "1.00 1.00 1.00"),
                new SoakBench.Minute(3, 60_500, 11.0, 141.0, 252, 46.5, 318, 42.0, 14.0, 8.0, "1.00 1.00 1.00")),
                400, 3_000_000, "live: stopped, interrupted, after 180 intervals", null);
        Machine machine = new Machine("cpu", 2, "Linux", "17", "0.5 0.5 0.5", "0.6 0.6 0.6");
        String md = SoakBench.markdown(r, "java -jar samples/target/hopscope-samples.jar bench --soak 3", machine, 200);
        assertThat(md).contains("| 3 | 60500 | 11.0 | 252 | 46.5 | 141.0 | 318 | 42.0 | 14.0 | 8.0 | 1.00 1.00 1.00 |")
                .contains("minute 2 against minute 3: live RSS 251 -> 252 MB (max 252), heap after GC 46.0 -> 46.5 MB (max 50.0)")
                .contains("live's CPU 12.0 -> 11.0 us per watched request (median over minutes 2-3 11.5)")
                .contains("181500 requests watched (1008 a second); the endpoint took 400 exports, 3.0 MB")
                .contains("- load average before: 0.5 0.5 0.5, after: 0.6 0.6 0.6");
        assertThat(MarkdownSection.replace("# x\n", md, MarkdownSection.SOAK_NAME)).startsWith("# x\n\n<!-- bench-soak:begin -->");
    }
}
