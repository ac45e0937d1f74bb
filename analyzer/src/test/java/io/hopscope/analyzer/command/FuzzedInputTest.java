package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KernelFixture;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23's fuzz test, the fixed reproducible set: a recording with the agent's events cut at many
 * offsets and with bytes flipped at random (fixed seeds), and another application's recordings (the
 * corpus), given to {@code report}. Each gives a report (exit 0) or one
 * line and exit 2: never a stack trace, a hang or another exit code. {@code -Dhopscope.fuzz.rounds=N}
 * runs N random flips instead of the fixed 40.
 */
class FuzzedInputTest {

    @TempDir
    static Path dir;
    static byte[] recording;

    /**
     * A fixed file, so that a seed flips the same bytes on every run (a fresh recording would make
     * each run a different test): KnownPathRecording.write(file, 3, 10), written once and kept.
     */
    @BeforeAll
    static void read() throws Exception {
        recording = Files.readAllBytes(Paths.moduleDir().resolve("src/test/resources/fuzz/known-path.jfr"));
    }

    @Test
    void aRecordingCutAnywhereIsReadOrRefusedInOneLine() throws Exception {
        int step = Math.max(1, recording.length / 60);
        for (int cut = 0; cut < recording.length; cut += step) {
            assertReportedOrRefused("cut at " + cut, Arrays.copyOf(recording, cut));
        }
    }

    @Test
    void flippedBytesAreReadOrRefusedInOneLine() throws Exception {
        int rounds = Integer.getInteger("hopscope.fuzz.rounds", 40);
        for (int seed = 1; seed <= rounds; seed++) {
            Random random = new Random(seed);
            byte[] bytes = recording.clone();
            for (int i = 0; i < 8; i++) {
                bytes[random.nextInt(bytes.length)] ^= (byte) (1 + random.nextInt(255));
            }
            assertReportedOrRefused("seed " + seed, bytes);
        }
    }

    @Test
    void recordingsOfOtherApplicationsAreReadOrRefusedInOneLine() throws Exception {
        for (String name : new String[] {"7u40.jfr", "crash_jdk9.jfr", "jdk15.jfr", "jdk21.jfr", "openjdk8u292.jfr"}) {
            assertReportedOrRefused(name, Files.readAllBytes(Paths.corpus().resolve(name)));
        }
    }

    @Test
    void eventsOfTheTracerWithGarbageLinesOrCutAreReadOrRefusedInOneLine() throws Exception {
        Path jfr = dir.resolve("kj.jfr");
        List<String> lines = KernelFixture.record(jfr, true).events();
        String[] garbage = {"not json", "{\"type\":\"offcpu\",\"tid\":", "\u0000\u0001\u0002", "{}", "[1,2,3]",
            "{\"type\":\"offcpu\",\"tid\":\"x\",\"startNs\":-1}", "a;b;c 10"};
        Random random = new Random(23);
        for (int round = 0; round < 30; round++) {
            List<String> damaged = new ArrayList<>(lines);
            if (round % 2 == 0) {
                damaged.add(random.nextInt(damaged.size() + 1), garbage[random.nextInt(garbage.length)]);
            } else {
                damaged = damaged.subList(0, random.nextInt(damaged.size() + 1));
            }
            Path events = Files.write(dir.resolve("fuzzed.jsonl"), damaged);
            Cli r = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> Cli.run("report", jfr.toString(), "--bpf", events.toString(), "--format", "json", "--top", "3"));
            assertOutcome("events round " + round, r);
        }
    }

    private static void assertReportedOrRefused(String what, byte[] bytes) throws Exception {
        Path file = dir.resolve("fuzzed.jfr");
        Files.write(file, bytes);
        Cli r = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> Cli.run("report", file.toString(), "--format", "json", "--top", "3"), what);
        assertOutcome(what, r);
    }

    private static void assertOutcome(String what, Cli r) {
        assertThat(r.exitCode()).as(what + ": " + r.err()).isIn(0, 2);
        assertThat(r.err()).as(what).doesNotContain("Exception").doesNotContain("\tat ");
        if (r.exitCode() == 2) {
            assertThat(r.err().strip()).as(what).hasLineCount(1);
            assertThat(r.out()).as(what).isEmpty();
        } else {
            assertThat(r.out()).as(what).startsWith("{");
        }
    }
}
