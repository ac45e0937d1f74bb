package io.hopscope.analyzer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/** {@code live --json}'s keys, a contract (docs/cli.md): exactly these first, in this order. */
public final class LiveJsonKeys {

    public static final List<String> TOP = List.of("epochMillis", "liveThreads", "inFlight", "gcPauseNanos", "names");
    public static final List<String> NAME = List.of("name", "started", "finished", "inFlight", "meanNanos", "p99Nanos",
            "hopsPerRequest", "queueDelayNanos", "wakeLatencyNanos", "allocatedBytesPerRequest", "lockNanosPerRequest");

    private LiveJsonKeys() {
    }

    /** Parses one line of {@code live --json}, asserting it starts with exactly the documented keys. */
    public static JsonNode parse(String line) throws Exception {
        assertThat(line).doesNotContain("\n");
        JsonNode n = new ObjectMapper().readTree(line);
        assertThat(keys(n).subList(0, TOP.size())).as(line).isEqualTo(TOP);
        for (JsonNode name : n.get("names")) {
            assertThat(keys(name).subList(0, NAME.size())).as(line).isEqualTo(NAME);
        }
        return n;
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }
}
