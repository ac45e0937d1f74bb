package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.analysis.kernel.OffCpuAttribution;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.OffCpuOverlap;
import io.hopscope.analyzer.read.JfrEvents;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KernelRecordingTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every output reads the recording once: the kernel join of {@code --bpf} takes its places from the
 * analyzer's pass ({@link OffCpuAttribution#readPlacesIn}) and gives what its own pass gave, and the
 * joins of JDK events to requests ({@code RecordingAnalyzer#join}) run in that pass too. Passes are counted by the reader
 * ({@link JfrEvents#passes()}); the tests of this module run one at a time in one JVM.
 */
class OnePassTest extends KernelRecordingTest {

    private static long passes(String... args) {
        long before = JfrEvents.passes();
        Cli r = Cli.run(args);
        assertThat(r.exitCode()).as(String.join(" ", args) + ": " + r.err()).isZero();
        return JfrEvents.passes() - before;
    }

    @Test
    void reportWithBpfReadsTheRecordingOnce() {
        assertThat(passes("report", jfr.toString(), "--bpf", events.toString())).isEqualTo(1);
        assertThat(passes("report", jfr.toString(), "--format", "json", "--bpf", events.toString())).isEqualTo(1);
    }

    @Test
    void traceAndFlameWithBpfReadTheRecordingOnce() {
        assertThat(passes("trace", jfr.toString(), "--bpf", events.toString())).isEqualTo(1);
        assertThat(passes("flame", jfr.toString(), "--kind", "offwake", "--bpf", events.toString(), "--format", "folded"))
                .isEqualTo(1);
    }

    /** Where samples are joined too (in the same pass), --bpf adds no pass of its own. */
    @Test
    void bpfAddsNoPassWhereSamplesAreJoined() {
        Path html = dir.resolve("r.html");
        assertThat(passes("report", jfr.toString(), "--format", "html", "-o", html.toString(), "--bpf", events.toString()))
                .isEqualTo(passes("report", jfr.toString(), "--format", "html", "-o", html.toString()));
        Path pprof = dir.resolve("r.pb.gz");
        assertThat(passes("export", jfr.toString(), "--format", "pprof", "-o", pprof.toString(), "--bpf", events.toString()))
                .isEqualTo(passes("export", jfr.toString(), "--format", "pprof", "-o", pprof.toString()));
    }

    /**
     * The outputs that join JDK events (samples, allocations, locks) to requests join them in the same
     * pass: export in both formats, the HTML report (its flame graphs) and the flame graphs.
     */
    @Test
    void outputsThatJoinSamplesReadTheRecordingOnce() {
        Path otlp = dir.resolve("once.otlp");
        assertThat(passes("export", jfr.toString(), "--format", "otlp", "-o", otlp.toString())).isEqualTo(1);
        Path pprof = dir.resolve("once.pb.gz");
        assertThat(passes("export", jfr.toString(), "--format", "pprof", "-o", pprof.toString())).isEqualTo(1);
        Path html = dir.resolve("once.html");
        assertThat(passes("report", jfr.toString(), "--format", "html", "-o", html.toString())).isEqualTo(1);
        assertThat(passes("flame", jfr.toString(), "--kind", "cpu", "--format", "folded")).isEqualTo(1);
    }

    @Test
    void theJoinInTheAnalyzersPassGivesWhatItsOwnPassGave() throws Exception {
        List<OffCpuOverlap> alone = new ArrayList<>();
        KernelReport ownPass = new OffCpuAttribution(jfr).onOverlap(alone::add).join(events);

        List<OffCpuOverlap> listening = new ArrayList<>();
        RecordingAnalyzer analyzer = new RecordingAnalyzer(jfr, new AnalysisOptions(null, -1, SortField.start, 5,
                AnalysisOptions.defaultDetailBytes()));
        OffCpuAttribution join = new OffCpuAttribution(jfr).onOverlap(listening::add).readPlacesIn(analyzer, events);
        long before = JfrEvents.passes();
        analyzer.analyze();
        KernelReport samePass = join.join(events);

        assertThat(JfrEvents.passes() - before).isEqualTo(1);
        assertThat(ownPass.requests()).isNotEmpty();
        assertThat(alone).isNotEmpty();
        assertThat(samePass).isEqualTo(ownPass);
        assertThat(listening).isEqualTo(alone);
    }
}
