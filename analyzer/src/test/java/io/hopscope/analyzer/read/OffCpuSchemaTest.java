package io.hopscope.analyzer.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.model.OffCpuInterval;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The {@code offwake --events} schema and the futex command classes are defined once, in offwake's Python
 * ({@code bpf/offwake_lib/records.py}, {@code futex.py}); this reads a fixture that offwake's own code wrote
 * ({@code src/test/resources/bpf/offwake-schema.jsonl}, regenerated and compared by
 * {@code bpf/tests/test_schema_fixture.py}) and checks that the reader takes every field where the writer
 * puts it and classes every futex command as {@code futex-classes.json} (written from futex.py) does.
 */
class OffCpuSchemaTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long OFFSET = 1_700_000_000_000_000_000L;
    private static final Path DIR = Paths.moduleDir().resolve("src/test/resources/bpf");

    private final List<OffCpuInterval> intervals = new ArrayList<>();
    private final List<OffCpuReader.TracerSummary> summaries = new ArrayList<>();
    private final List<OffCpuReader.LossWindow> losses = new ArrayList<>();
    private final List<JsonNode> lines = new ArrayList<>();

    OffCpuSchemaTest() throws Exception {
        ClockAlignment clock = new ClockAlignment();
        clock.add(OFFSET + 1_000, 1_000);
        Path fixture = DIR.resolve("offwake-schema.jsonl");
        long n = OffCpuReader.read(fixture, clock, intervals::add, summaries::add, losses::add);
        assertThat(n).isEqualTo(intervals.size());
        for (String line : Files.readAllLines(fixture)) {
            JsonNode r = MAPPER.readTree(line);
            if (r.has("tid")) {
                lines.add(r);
            }
        }
        assertThat(intervals).hasSameSizeAs(lines).hasSizeGreaterThan(28);
    }

    @Test
    void everyFutexCommandIsClassedAsOffwakeClassesIt() throws Exception {
        JsonNode classes = MAPPER.readTree(DIR.resolve("futex-classes.json").toFile());
        Set<String> waits = names(classes.get("wait"));
        Set<String> wakes = names(classes.get("wake"));
        Set<String> seenWaits = new HashSet<>();
        Set<String> seenWakers = new HashSet<>();
        for (int k = 0; k < lines.size(); k++) {
            JsonNode futex = lines.get(k).get("futex");
            JsonNode wakerFutex = lines.get(k).get("waker_futex");
            OffCpuInterval i = intervals.get(k);
            String cmd = futex.isObject() ? futex.get("cmd").asText() : null;
            assertThat(i.futexWait()).as("line %d, %s", k + 1, cmd).isEqualTo(cmd != null && waits.contains(cmd));
            boolean sameFutex = wakerFutex.isObject() && futex.isObject()
                    && wakerFutex.get("uaddr").asText().equals(futex.get("uaddr").asText());
            String wakerCmd = wakerFutex.isObject() ? wakerFutex.get("cmd").asText() : null;
            assertThat(i.futexWake()).as("line %d, woken by %s", k + 1, wakerCmd)
                    .isEqualTo(i.futexWait() && sameFutex && wakes.contains(wakerCmd));
            if (cmd != null && wakerCmd == null) {
                seenWaits.add(cmd);
            }
            if (sameFutex) {
                seenWakers.add(wakerCmd);
            }
        }
        // Every command offwake names, on both sides: a command missing from the fixture is not checked.
        Set<String> all = names(classes.get("commands"));
        assertThat(seenWaits).isEqualTo(all);
        assertThat(seenWakers).isEqualTo(all);
        assertThat(all).containsAll(waits).containsAll(wakes);
    }

    @Test
    void everyFieldIsReadWhereTheWriterPutsIt() {
        for (int k = 0; k < lines.size(); k++) {
            JsonNode r = lines.get(k);
            OffCpuInterval i = intervals.get(k);
            assertThat(i.tid()).isEqualTo(r.get("tid").asLong());
            assertThat(i.comm()).isEqualTo(r.get("comm").asText());
            assertThat(i.offEpochNanos()).isEqualTo(r.get("off_ns").asLong() + OFFSET);
            assertThat(i.onEpochNanos()).isEqualTo(r.get("on_ns").asLong() + OFFSET);
            assertThat(i.offCpuNanos()).isEqualTo(r.get("offcpu_ns").asLong());
            assertThat(i.state()).isEqualTo(r.get("state").asText());
            assertThat(i.runQueueNanos()).isEqualTo(r.get("runq_ns").isNull() ? -1 : r.get("runq_ns").asLong());
            assertThat(i.wakeupEpochNanos()).isEqualTo(r.get("wakeup_ns").isNull() ? -1 : r.get("wakeup_ns").asLong() + OFFSET);
            assertThat(i.stackWeight()).isEqualTo(r.get("stack_weight").asInt());
            JsonNode waker = r.get("waker");
            assertThat(i.wakerTid()).isEqualTo(waker.isObject() ? waker.get("tid").asLong() : -1);
            assertThat(i.wakerComm()).isEqualTo(waker.isObject() ? waker.get("comm").asText() : null);
            assertThat(i.wakerContext()).isEqualTo(waker.isObject() ? waker.get("context").asText() : null);
            JsonNode futex = r.get("futex");
            assertThat(i.futexEnterEpochNanos()).isEqualTo(futex.isObject() ? futex.get("enter_ns").asLong() + OFFSET : -1);
            assertThat(i.stack().kernel()).isEqualTo(strings(r.get("stack").get("kernel")));
            assertThat(i.stack().user()).isEqualTo(strings(r.get("stack").get("user")));
        }
        // The shapes the fixture holds beside the futex commands: preempted, and sampled with stacks.
        OffCpuInterval preempted = intervals.stream().filter(i -> "R+".equals(i.state())).findFirst().orElseThrow();
        assertThat(preempted.runQueueNanos()).isEqualTo(preempted.offCpuNanos());
        assertThat(preempted.wakerComm()).isNull();
        OffCpuInterval sampled = intervals.stream().filter(i -> i.stackWeight() == 8).findFirst().orElseThrow();
        assertThat(sampled.stack().user()).containsExactly("Object.wait", "Main.main");
        assertThat(sampled.wakerFrames().kernel()).containsExactly("try_to_wake_up", "futex_wake");
        assertThat(sampled.wakerStack()).containsExactly("Object.notify", "Worker.run");
        assertThat(sampled.wakerContext()).isEqualTo("irq");
    }

    @Test
    void theLossRecordAndTheSummaryAreRead() {
        assertThat(losses).hasSize(2);
        OffCpuReader.LossWindow named = losses.get(0);
        assertThat(named.records()).isEqualTo(300);
        assertThat(named.fromEpochNanos()).isEqualTo(5_500_000_000L + OFFSET);
        assertThat(named.toEpochNanos()).isEqualTo(5_520_000_000L + OFFSET);
        assertThat(named.tids()).containsExactly(1001L, 1002L);
        assertThat(named.covers(1001)).isTrue();
        assertThat(named.covers(1003)).isFalse();
        OffCpuReader.LossWindow anyThread = losses.get(1);
        assertThat(anyThread.records()).isEqualTo(28);
        assertThat(anyThread.tids()).isNull();
        assertThat(anyThread.covers(1003)).isTrue();
        assertThat(summaries).singleElement().isEqualTo(new OffCpuReader.TracerSummary(328, 0, 0, 8));
    }

    private static Set<String> names(JsonNode array) {
        Set<String> out = new HashSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
