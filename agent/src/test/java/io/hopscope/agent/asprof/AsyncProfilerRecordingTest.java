package io.hopscope.agent.asprof;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The asprof= value: event, interval, and the one line for each mistake. */
class AsyncProfilerRecordingTest {

    @Test
    void eventAndIntervalBecomeAJfrsyncStartCommand() {
        List<String> problems = new ArrayList<>();
        AsyncProfilerRecording.Settings s = AsyncProfilerRecording.parse("wall;interval=5ms", problems::add);
        assertThat(problems).isEmpty();
        assertThat(s.command(Path.of("/x/h.jfc"), Path.of("/y/r.jfr")))
                .isEqualTo("start,event=wall,interval=5ms,jfrsync=/x/h.jfc,file=/y/r.jfr");
        assertThat(AsyncProfilerRecording.parse("CPU", problems::add).command(Path.of("/h.jfc"), Path.of("/r.jfr")))
                .isEqualTo("start,event=cpu,jfrsync=/h.jfc,file=/r.jfr");
        assertThat(AsyncProfilerRecording.parse("alloc;interval=512k", problems::add).interval()).isEqualTo("512k");
        assertThat(problems).isEmpty();
    }

    @Test
    void mistakesAreOneLineAndStartNothing() {
        List<String> problems = new ArrayList<>();
        assertThat(AsyncProfilerRecording.parse("gpu", problems::add)).isNull();
        // a ',' in the value would end the option, so async-profiler's own syntax cannot sneak in
        assertThat(AsyncProfilerRecording.parse("cpu;interval=fast", problems::add)).isNull();
        assertThat(AsyncProfilerRecording.parse("cpu;file=/tmp/x", problems::add)).isNull();
        assertThat(problems).hasSize(3);
        assertThat(problems.get(0)).startsWith("hopscope: asprof= event 'gpu' is not one of alloc, cpu, ctimer, itimer, lock, wall");
        assertThat(problems.get(1)).contains("'interval=fast'");
        assertThat(problems.get(2)).contains("'file=/tmp/x'");
    }
}
