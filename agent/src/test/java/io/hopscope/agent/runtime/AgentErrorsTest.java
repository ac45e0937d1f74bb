package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentErrorsTest {

    @Test
    void aFailureKeepsItsClassAndAMessageWithoutUrlsSecrets() {
        String described = AgentErrors.describe(new IOException("GET https://reader:Pass4711@acct.blob.core.windows.net"
                + "/c/b?sv=2021&sig=PlantedSig%3D&se=2030 failed: 403, Authorization: SharedKey acct:PlantedKey=="
                + " x-ms-account-key=PlantedAccountKey token=PlantedToken"));

        assertThat(described).startsWith("java.io.IOException: GET https://acct.blob.core.windows.net/c/b failed: 403, ")
                .contains("Authorization: <redacted>", "x-ms-account-key=<redacted>", "token=<redacted>")
                .doesNotContain("Pass4711", "reader", "PlantedSig", "PlantedKey", "PlantedAccountKey", "PlantedToken", "sv=");
    }

    @Test
    void aMessageThatNeedsNoRedactionIsKeptAndALongOneIsCut() {
        assertThat(AgentErrors.describe(new IllegalStateException("no field 'queue' in class Worker")))
                .isEqualTo("java.lang.IllegalStateException: no field 'queue' in class Worker");
        assertThat(AgentErrors.describe(new NullPointerException())).isEqualTo("java.lang.NullPointerException");
        assertThat(AgentErrors.describe(new RuntimeException("x".repeat(1000))))
                .hasSize("java.lang.RuntimeException: ".length() + AgentErrors.MAX_MESSAGE + 3).endsWith("...");
    }

    @Test
    void aUrlThatCannotBeTakenApartIsDroppedWhole() {
        assertThat(AgentErrors.describe(new RuntimeException("bad https://user:secret@/x?sig=abc")))
                .isEqualTo("java.lang.RuntimeException: bad <url>");
    }

    @Test
    void aTaskOfTheAgentsOwnIsNotAnInstrumentation(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("errors.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("hopscope.AgentError");
            recording.start();
            AgentErrors.reportTask("transform", "com.example.Broken", new IllegalStateException("no frames"));
            AgentErrors.reportTask("transform", "com.example.Other", new IllegalStateException("counted only"));
            // A name no other test reports under: the counts are the JVM's.
            AgentErrors.report("agent-errors-test", new IllegalStateException("a hook failed"));
            recording.stop();
            recording.dump(file);
        }
        List<String> errors = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("hopscope.AgentError"))
                .map(AgentErrorsTest::line).toList();
        assertThat(errors).containsExactly(
                "|transform|com.example.Broken: java.lang.IllegalStateException: no frames|1",
                "agent-errors-test||java.lang.IllegalStateException: a hook failed|1");
    }

    private static String line(RecordedEvent e) {
        return e.getString("instrumentation") + "|" + e.getString("task") + "|" + e.getString("message") + "|"
                + e.getLong("count");
    }
}
