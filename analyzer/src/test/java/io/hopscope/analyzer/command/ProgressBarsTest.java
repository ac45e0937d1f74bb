package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.testing.KnownPathFile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The read's progress, and the bar that shows it only on a terminal. */
class ProgressBarsTest {

    @RegisterExtension
    static final KnownPathFile recording = new KnownPathFile(3);

    @Test
    void theAnalyzerReportsItsProgressThroughTheRecordingsTimeSpan() throws Exception {
        List<Double> shares = new ArrayList<>();
        new RecordingAnalyzer(recording.file(), new AnalysisOptions(null, 0, SortField.duration, 0, 0))
                .progress(shares::add).analyze();
        assertThat(shares).isNotEmpty().isSorted().allSatisfy(s -> assertThat(s).isBetween(0.0, 1.0));
        // The last flush point is the chunk's end: the events have reached (nearly) the end of its span.
        assertThat(shares.get(shares.size() - 1)).isGreaterThan(0.5);
    }

    @Test
    void stderrThatIsAPipeOrAFileIsNoTerminal() throws Exception {
        // Surefire's stderr is a pipe or a file, never a terminal: the bar stays off.
        assertThat(ProgressBars.stderrIsTerminal()).isFalse();
    }
}
