package io.hopscope.analyzer.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.KnownPathRecording;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading by position gives what reading by name gives, for every field of every contract event of
 * a real recording (read the way the analyzer reads, with reused event objects). The tests run with
 * {@code jdk.jfr.consumer} opened (surefire's argLine), as {@code java -jar} runs the analyzer.
 */
class EventFieldsTest {

    @TempDir
    Path dir;

    @Test
    void readsByPositionWhereTheJarOpensTheConsumerPackage() {
        assertThat(EventFields.byPosition()).isTrue();
    }

    @Test
    void everyFieldReadsAsByName() throws Exception {
        Path file = dir.resolve("known.jfr");
        KnownPathRecording.write(file, 3, 5);
        Map<String, EventFields> readers = new HashMap<>();
        Map<String, List<String>> names = new HashMap<>();
        List<String> mismatches = new ArrayList<>();
        long[] compared = {0};
        new JfrEvents().reader(JfrEvents.Reader.jdk, n -> { }).stream(file, HopscopeContract.EVENTS.keySet(), v -> {
            JdkEvent view = (JdkEvent) v;
            RecordedEvent e = view.recorded();
            String type = e.getEventType().getName();
            List<String> fields = names.computeIfAbsent(type, t -> {
                List<String> n = new ArrayList<>(e.getFields().stream().map(ValueDescriptor::getName).toList());
                n.add("noSuchField");
                return n;
            });
            EventFields reader = readers.computeIfAbsent(type, t -> new EventFields(fields.toArray(String[]::new)));
            for (int i = 0; i < fields.size(); i++) {
                Object byName = view.wrap(byName(e, fields.get(i)));
                Object byPosition = reader.value(view, i);
                compared[0]++;
                if (!java.util.Objects.equals(byName, byPosition)) {
                    mismatches.add(type + "." + fields.get(i) + ": " + byName + " by name, " + byPosition + " by position");
                }
            }
        });
        assertThat(names).containsKeys("hopscope.Request", "hopscope.Segment", "hopscope.Hop", "hopscope.Span",
                "hopscope.Wait");
        assertThat(compared[0]).isGreaterThan(100);
        assertThat(mismatches).isEmpty();
    }

    private static Object byName(RecordedEvent e, String name) {
        try {
            return e.getValue(name);
        } catch (IllegalArgumentException absent) {
            return null;
        }
    }
}
