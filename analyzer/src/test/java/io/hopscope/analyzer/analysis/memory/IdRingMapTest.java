package io.hopscope.analyzer.analysis.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** IdRingMap against HashMap: a window of rising ids, stragglers far behind it, and keys that are no window. */
class IdRingMapTest {

    @Test
    void agreesWithHashMapThroughAWindowOfIdsAndStragglers() {
        IdRingMap<String> map = new IdRingMap<>(16);
        Map<Long, String> expected = new HashMap<>();
        Random random = new Random(42);
        long nextId = 1;
        for (int step = 0; step < 60_000; step++) {
            int op = random.nextInt(10);
            if (op < 5) {
                long id = nextId++;
                map.put(id, "r" + id);
                expected.put(id, "r" + id);
            } else if (op < 8 && nextId > 1) {
                // ids finish roughly in order; one in ten of those asked stays far behind (a straggler)
                long id = Math.max(1, nextId - 1 - random.nextInt(random.nextInt(10) == 0 ? 5_000 : 64));
                assertThat(map.remove(id)).isEqualTo(expected.remove(id));
            } else {
                long id = random.nextInt((int) nextId + 10) - 5;
                assertThat(map.get(id)).isEqualTo(expected.get(id));
            }
            assertThat(map.size()).isEqualTo(expected.size());
        }
        assertSameContents(map, expected);
    }

    @Test
    void keysThatCollideInEveryRingStayRight() {
        IdRingMap<String> map = new IdRingMap<>(16);
        Map<Long, String> expected = new HashMap<>();
        for (long k = 1; k <= 3_000; k++) {
            long id = k << 40; // the same low bits for every key
            map.put(id, "r" + k);
            expected.put(id, "r" + k);
        }
        map.put(5L << 40, "again");
        expected.put(5L << 40, "again");
        for (long k = 1; k <= 3_000; k += 3) {
            assertThat(map.remove(k << 40)).isEqualTo(expected.remove(k << 40));
        }
        assertThat(map.remove(1L << 40)).isNull();
        assertSameContents(map, expected);
    }

    @Test
    void replacesInTheRingAndInTheOverflowAndClears() {
        IdRingMap<String> map = new IdRingMap<>(16);
        map.put(3, "a");
        map.put(3 + 32, "b"); // the slot of 3: into the overflow
        map.put(3, "c");
        map.put(3 + 32, "d");
        map.remove(3);
        map.put(3 + 32, "e"); // still the overflow's, though its ring slot is free now
        assertThat(map.size()).isEqualTo(1);
        assertThat(map.get(3 + 32)).isEqualTo("e");
        assertThat(map.get(3)).isNull();
        map.clear();
        assertThat(map.isEmpty()).isTrue();
        assertThat(map.get(3 + 32)).isNull();
    }

    private static void assertSameContents(IdRingMap<String> map, Map<Long, String> expected) {
        assertThat(map.size()).isEqualTo(expected.size());
        for (Map.Entry<Long, String> e : expected.entrySet()) {
            assertThat(map.get(e.getKey())).isEqualTo(e.getValue());
        }
        List<String> values = new ArrayList<>();
        map.forEachValue(values::add);
        assertThat(values).containsExactlyInAnyOrderElementsOf(expected.values());
    }
}
