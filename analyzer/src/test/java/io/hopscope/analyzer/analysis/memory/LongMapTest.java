package io.hopscope.analyzer.analysis.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** LongMap against HashMap under the single pass's pattern: sequential ids put, then removed out of order. */
class LongMapTest {

    @Test
    void agreesWithHashMapThroughPutsAndRemoves() {
        LongMap<String> map = new LongMap<>(4);
        Map<Long, String> expected = new HashMap<>();
        Random random = new Random(42);
        long nextId = 1;
        for (int step = 0; step < 30_000; step++) {
            int op = random.nextInt(10);
            if (op < 5) {
                long id = nextId++;
                map.put(id, "r" + id);
                expected.put(id, "r" + id);
            } else if (op < 8 && nextId > 1) {
                // ids finish roughly in order, some much later than others
                long id = Math.max(1, nextId - 1 - random.nextInt(64));
                assertThat(map.remove(id)).isEqualTo(expected.remove(id));
            } else {
                long id = random.nextInt((int) nextId + 10) - 5;
                assertThat(map.get(id)).isEqualTo(expected.get(id));
                assertThat(map.containsKey(id)).isEqualTo(expected.containsKey(id));
            }
            assertThat(map.size()).isEqualTo(expected.size());
        }
        for (Map.Entry<Long, String> e : expected.entrySet()) {
            assertThat(map.get(e.getKey())).isEqualTo(e.getValue());
        }
        List<String> values = new ArrayList<>();
        map.forEachValue(values::add);
        assertThat(values).containsExactlyInAnyOrderElementsOf(expected.values());
    }

    @Test
    void replacesAndClears() {
        LongMap<String> map = new LongMap<>();
        map.put(-3, "a");
        map.put(-3, "b");
        map.put(Long.MIN_VALUE, "c");
        assertThat(map.size()).isEqualTo(2);
        assertThat(map.get(-3)).isEqualTo("b");
        assertThat(map.get(Long.MIN_VALUE)).isEqualTo("c");
        map.clear();
        assertThat(map.isEmpty()).isTrue();
        assertThat(map.get(-3)).isNull();
    }
}
