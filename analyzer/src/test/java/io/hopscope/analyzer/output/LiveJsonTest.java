package io.hopscope.analyzer.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hopscope.analyzer.model.LiveInterval;
import io.hopscope.analyzer.testing.LiveJsonKeys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code live --json}'s keys are a contract (docs/cli.md): exactly these first, in this order, one line. */
class LiveJsonTest {

    @Test
    void keysAreExactlyTheDocumentedOnesInOrderOnOneLine() throws Exception {
        Map<String, Double> byKind = new LinkedHashMap<>();
        byKind.put("handoff", 1.0);
        byKind.put("wake", 1.0);
        LiveInterval interval = new LiveInterval(1700000000123L, 560, 503, 7_000_000, List.of(
                new LiveInterval.Name("GET /a \"quoted\"", 101, 100, 503, 5_030_000_000L, 5_120_000_000L, 2.0, byKind,
                        3_960_000L, 10_050_000L, 9011L, 0L, 100, 7),
                new LiveInterval.Name("idle", 0, 0, 0, null, null, null, Map.of(), null, null, null, null, 0, 0)));
        String line = LiveJson.line(interval);
        JsonNode n = LiveJsonKeys.parse(line);
        assertThat(n.get("epochMillis").asLong()).isEqualTo(1700000000123L);
        assertThat(n.get("liveThreads").asInt()).isEqualTo(560);
        assertThat(n.get("inFlight").asLong()).isEqualTo(503);
        assertThat(n.get("gcPauseNanos").asLong()).isEqualTo(7_000_000);
        JsonNode a = n.get("names").get(0);
        assertThat(a.get("name").asText()).isEqualTo("GET /a \"quoted\"");
        assertThat(a.get("p99Nanos").asLong()).isEqualTo(5_120_000_000L);
        assertThat(a.get("hopsPerRequest").asDouble()).isEqualTo(2.0);
        assertThat(a.get("hopsPerRequestByKind").get("wake").asDouble()).isEqualTo(1.0);
        assertThat(a.get("finishedBegunBefore").asLong()).isEqualTo(7);
        JsonNode idle = n.get("names").get(1);
        assertThat(idle.get("meanNanos").isNull()).isTrue();
        assertThat(idle.get("lockNanosPerRequest").isNull()).isTrue();
    }

    @Test
    void textHasAProcessLineThenOneLinePerName() {
        LiveInterval interval = new LiveInterval(0, 12, 3, 0, List.of(
                new LiveInterval.Name("op", 3, 0, 3, null, null, null, Map.of(), null, null, null, null, 0, 0),
                new LiveInterval.Name("old", 0, 0, 0, null, null, null, Map.of(), null, null, null, null, 0, 2)));
        List<String> lines = LiveText.lines(interval);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).contains("threads 12  in flight 3  gc pause 0 ns");
        assertThat(lines.get(1)).isEqualTo("  op  started 3  finished 0  in flight 3  mean -  p99 -  hops/req -"
                + "  queue -  wake -  alloc/req -  lock/req -");
        assertThat(lines.get(2)).startsWith("  old  started 0  finished 0 (+2 begun before watching)  in flight 0");
    }
}
