package io.hopscope.analyzer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every integration test class that records in the test JVM, or commits the contract's events there,
 * holds {@link FlightRecorderLock}, and no other: found from the test sources, not from a list. A
 * class records in process where its code (comments left out) starts a {@code Recording} or
 * {@code RecordingStream} or names {@code ContractEvents}, or names a helper that does so, however
 * deep (KnownPathRecording, RecordingGenerator, ...).
 */
class FlightRecorderLockTest {

    private static final Pattern IN_PROCESS = Pattern.compile("new Recording(Stream)?\\(|\\bContractEvents\\b");
    private static final Pattern COMMENTS = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");
    private static final String LOCK = "@ResourceLock(FlightRecorderLock.NAME)";

    @Test
    void everyIntegrationTestThatRecordsInProcessHoldsTheLockAndNoOtherDoes() throws IOException {
        Map<String, String> code = new TreeMap<>();
        try (Stream<Path> files = Files.walk(Paths.moduleDir().resolve("src/test/java"))) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String name = f.getFileName().toString().replace(".java", "");
                code.put(name, COMMENTS.matcher(Files.readString(f)).replaceAll(""));
            }
        }
        // The helpers that record, however deep: a test class's name never makes another a recorder.
        Set<String> recorders = new TreeSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Map.Entry<String, String> c : code.entrySet()) {
                String name = c.getKey();
                if (!recorders.contains(name) && !name.endsWith("Test") && !name.endsWith("IT")
                        && records(c.getValue(), recorders)) {
                    recorders.add(name);
                    grew = true;
                }
            }
        }
        Set<String> recording = new TreeSet<>();
        Set<String> locked = new TreeSet<>();
        for (Map.Entry<String, String> c : code.entrySet()) {
            if (c.getKey().endsWith("IT")) {
                if (records(c.getValue(), recorders)) {
                    recording.add(c.getKey());
                }
                if (c.getValue().contains(LOCK)) {
                    locked.add(c.getKey());
                }
            }
        }
        assertThat(recorders).as("helpers that record in process").contains("KnownPathRecording", "HostileRecording");
        assertThat(recording).as("integration tests that record in process").contains("FlameCpuIT");
        assertThat(locked).as("integration tests holding " + LOCK + ", against those that record in process")
                .isEqualTo(recording);
    }

    private static boolean records(String code, Set<String> recorders) {
        if (IN_PROCESS.matcher(code).find()) {
            return true;
        }
        for (String r : recorders) {
            if (Pattern.compile("\\b" + r + "\\b").matcher(code).find()) {
                return true;
            }
        }
        return false;
    }
}
