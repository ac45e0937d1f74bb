package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.ContractEvents;
import io.hopscope.analyzer.testing.KernelFixture;
import io.hopscope.analyzer.testing.Paths;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Recording;
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

    // Requests in the multi-chunk recording, four to a chunk: none spans a chunk.
    static final int MULTI_CHUNK_REQUESTS = 24;

    @TempDir
    static Path dir;
    static byte[] recording;
    static byte[] multiChunk;
    static String lastErr;

    /**
     * A fixed file, so that a seed flips the same bytes on every run (a fresh recording would make
     * each run a different test): KnownPathRecording.write(file, 3, 10), written once and kept.
     */
    @BeforeAll
    static void read() throws Exception {
        recording = Files.readAllBytes(Paths.moduleDir().resolve("src/test/resources/fuzz/known-path.jfr"));
        // A chunk per four requests: a second recording started and stopped rotates the chunk.
        Path multi = dir.resolve("multi-chunk.jfr");
        try (Recording r = new Recording()) {
            r.enable(ContractEvents.Request.class);
            r.enable(ContractEvents.Segment.class);
            r.start();
            for (int id = 1; id <= MULTI_CHUNK_REQUESTS; id++) {
                ContractEvents.Request end = new ContractEvents.Request();
                end.begin();
                ContractEvents.instantSegment(id, "start", 64);
                end.requestId = id;
                end.name = "GET /chunks";
                end.outcome = "ok";
                end.commit();
                if (id % 4 == 0) {
                    try (Recording rotate = new Recording()) {
                        rotate.start();
                        rotate.stop();
                    }
                }
            }
            r.stop();
            r.dump(multi);
        }
        multiChunk = Files.readAllBytes(multi);
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
        for (int seed = 1; seed <= rounds(40); seed++) {
            assertReportedOrRefused("seed " + seed, flipped(recording, new Random(seed)));
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

    @Test
    void asyncProfilersOwnRecordingIsReadAsOneWithoutHopscopeEvents() throws Exception {
        // async-profiler writes JFR itself (not through the JDK's recorder): made by a real run, see
        // src/test/resources/fuzz/README.md.
        Path file = Paths.moduleDir().resolve("src/test/resources/fuzz/async-profiler.jfr");
        Cli r = Cli.run("report", file.toString(), "--format", "json", "--top", "3");
        assertOutcome("async-profiler", r);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("no hopscope events");
        assertThat(r.out()).contains("\"requests\" : [ ]");
        byte[] bytes = Files.readAllBytes(file);
        for (int cut = 0; cut < bytes.length; cut += Math.max(1, bytes.length / 20)) {
            assertReportedOrRefused("async-profiler cut at " + cut, Arrays.copyOf(bytes, cut));
        }
        // Seed 17 flips a byte in a type's name: the JDK's parser then fails without a message.
        for (int seed = 1; seed <= rounds(20); seed++) {
            assertReportedOrRefused("async-profiler seed " + seed, flipped(bytes, new Random(seed)));
        }
    }

    @Test
    void chunksReorderedDuplicatedOrDroppedGiveTheRequestsOfTheChunksRead() throws Exception {
        List<byte[]> chunks = chunks(multiChunk);
        assertThat(chunks).hasSizeGreaterThan(4);
        long[] perChunk = new long[chunks.size()];
        for (int i = 0; i < chunks.size(); i++) {
            perChunk[i] = requestCount("chunk " + i + " alone", List.of(chunks.get(i)));
        }
        assertThat(Arrays.stream(perChunk).sum()).isEqualTo(MULTI_CHUNK_REQUESTS);
        List<byte[]> reversed = new ArrayList<>(chunks);
        Collections.reverse(reversed);
        assertThat(requestCount("reversed", reversed)).isEqualTo(MULTI_CHUNK_REQUESTS);
        for (int seed = 1; seed <= rounds(5); seed++) {
            List<byte[]> shuffled = new ArrayList<>(chunks);
            Collections.shuffle(shuffled, new Random(seed));
            assertThat(requestCount("shuffled, seed " + seed, shuffled)).isEqualTo(MULTI_CHUNK_REQUESTS);
        }
        int k = 2;
        List<byte[]> duplicated = new ArrayList<>(chunks);
        duplicated.add(chunks.get(k));
        duplicated.add(0, chunks.get(k + 1));
        assertThat(requestCount("duplicated", duplicated)).isEqualTo(MULTI_CHUNK_REQUESTS);
        assertThat(lastErr).contains("2 chunk(s) repeat an earlier chunk of the file (same header): each was read once");
        List<byte[]> dropped = new ArrayList<>(chunks);
        dropped.remove(k);
        assertThat(requestCount("chunk dropped", dropped)).isEqualTo(MULTI_CHUNK_REQUESTS - perChunk[k]);
    }

    @Test
    void eventsOfTheTracerOnAnotherClockAreReadOrRefusedInOneLine() throws Exception {
        // The eBPF file of another boot or machine: every time shifted, by a little, by a lot, to
        // before the epoch, and to the edge of a long.
        Path jfr = dir.resolve("kc.jfr");
        List<String> lines = KernelFixture.record(jfr, true).events();
        Pattern times = Pattern.compile("(\"(?:off_ns|on_ns|waking_ns|wakeup_ns|enter_ns)\":)(\\d+)");
        // The "little" shift is one second past the fixture's whole span, so that no kernel record
        // can still fall inside a request: a shift smaller than the span would be a clock that
        // partly agrees, which this test does not mean to make (and did, by chance, with a hash).
        long little = timeSpan(lines, times) + 1_000_000_000L;
        for (long shift : new long[] {3_600_000_000_000L, -3_600_000_000_000L, little, -little,
            Long.MAX_VALUE / 2, Long.MIN_VALUE / 2}) {
            List<String> shifted = new ArrayList<>();
            for (String line : lines) {
                Matcher m = times.matcher(line);
                StringBuilder out = new StringBuilder();
                while (m.find()) {
                    m.appendReplacement(out, m.group(1) + (Long.parseLong(m.group(2)) + shift));
                }
                m.appendTail(out);
                shifted.add(out.toString());
            }
            Path events = Files.write(dir.resolve("shifted.jsonl"), shifted);
            Cli r = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> Cli.run("report", jfr.toString(), "--bpf", events.toString(), "--format", "json", "--top", "3"));
            assertOutcome("shifted by " + shift, r);
            if (r.exitCode() == 0) {
                // Nothing of it falls in a request: no kernel figure is made up from another clock.
                assertThat(r.out()).as("shifted by " + shift).contains("\"intervalsInRequests\" : 0");
            }
        }
    }

    private static long timeSpan(List<String> lines, Pattern times) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (String line : lines) {
            Matcher m = times.matcher(line);
            while (m.find()) {
                long t = Long.parseLong(m.group(2));
                min = Math.min(min, t);
                max = Math.max(max, t);
            }
        }
        assertThat(max).as("the fixture has kernel times").isGreaterThanOrEqualTo(min);
        return max - min;
    }

    private static int rounds(int fixed) {
        return Integer.getInteger("hopscope.fuzz.rounds", fixed);
    }

    private static byte[] flipped(byte[] recording, Random random) {
        byte[] bytes = recording.clone();
        for (int i = 0; i < 8; i++) {
            bytes[random.nextInt(bytes.length)] ^= (byte) (1 + random.nextInt(255));
        }
        return bytes;
    }

    /** The file's chunks, split by the chunk size in each header (bytes 8-15, big-endian). */
    static List<byte[]> chunks(byte[] file) {
        List<byte[]> chunks = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(file);
        for (int pos = 0; pos < file.length; ) {
            int size = (int) b.getLong(pos + 8);
            chunks.add(Arrays.copyOfRange(file, pos, pos + size));
            pos += size;
        }
        return chunks;
    }

    private static long requestCount(String what, List<byte[]> chunks) throws Exception {
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        for (byte[] c : chunks) {
            joined.write(c);
        }
        Path file = dir.resolve("chunks.jfr");
        Files.write(file, joined.toByteArray());
        Cli r = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> Cli.run("report", file.toString(), "--format", "json", "--top", "0"), what);
        assertOutcome(what, r);
        assertThat(r.exitCode()).as(what + ": " + r.err()).isZero();
        lastErr = r.err();
        long count = 0;
        for (JsonNode name : new ObjectMapper().readTree(r.out()).get("summary")) {
            count += name.get("count").asLong();
        }
        return count;
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
