package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import java.util.List;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The JIT training of JFR's writer runs in premain before the jfr= recording starts and leaves
 * nothing in it: no event, no event type, no string the recording refers to without carrying.
 */
@Isolated("it measures the JIT's work")
class JitTrainingIT {

    @Test
    void trainingRunsAndLeavesNoTraceInTheRecording() throws Exception {
        AgentRun run = AgentRun.runWithDefaultJvm("jfr=%JFR%,requests=io.hopscope.testapps.SpanThresholdApp#request",
                List.of("-Dhopscope.debug=true", "-cp", System.getProperty("hopscope.test.classes"),
                        "io.hopscope.testapps.SpanThresholdApp", "3"));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.agentLines()).anyMatch(l -> l.matches("hopscope: JIT training of the JFR writer took \\d+ ms"));
        // The recording is there and holds the run's requests ...
        assertThat(run.events()).filteredOn(e -> e.getEventType().getName().equals("hopscope.Request")).hasSize(3);
        // Strings written at the recording's start survive (the training's recording wrote none).
        assertThat(run.events()).filteredOn(e -> e.getEventType().getName().equals("hopscope.AgentInfo"))
                .isNotEmpty().allSatisfy(e -> {
                    assertThat(e.getString("options")).contains("requests=io.hopscope.testapps.SpanThresholdApp#request");
                    assertThat(e.getString("instrumentations")).contains("executors");
                });
        // ... and nothing of the training.
        assertThat(run.events()).noneMatch(e -> e.getEventType().getName().contains("JitTraining"));
        try (RecordingFile file = new RecordingFile(run.recording)) {
            assertThat(file.readEventTypes()).extracting(EventType::getName)
                    .contains("hopscope.Request")
                    .noneMatch(name -> name.contains("JitTraining"));
        }
    }
}
