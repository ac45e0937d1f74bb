package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.events.AgentErrorEvent;
import io.hopscope.agent.events.AgentInfoEvent;
import io.hopscope.agent.events.AgentWorkEvent;
import io.hopscope.agent.events.ClockSyncEvent;
import io.hopscope.agent.events.HopEvent;
import io.hopscope.agent.events.MountsEvent;
import io.hopscope.agent.events.NonBlockingWaitEvent;
import io.hopscope.agent.events.RequestEvent;
import io.hopscope.agent.events.RequestStartEvent;
import io.hopscope.agent.events.SegmentEvent;
import io.hopscope.agent.events.SpanEvent;
import io.hopscope.agent.events.WaitEvent;
import io.hopscope.agent.instrumentation.parks.ParksInstrumentation;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.ValueDescriptor;
import org.junit.jupiter.api.Test;

/** The README's recording contract table and the agent's event classes agree, both ways. */
class RecordingContractTest {

    private static final Set<String> STANDARD_FIELDS = Set.of("startTime", "duration", "eventThread", "stackTrace");
    private static final Pattern FIELD = Pattern.compile("`(\\w+)` \\((\\w+)\\)");

    static Map<String, Map<String, String>> contract() throws Exception {
        String readme = Files.readString(Path.of(System.getProperty("hopscope.readme", "../README.md")));
        String table = readme.substring(readme.indexOf("<!-- contract:begin -->"), readme.indexOf("<!-- contract:end -->"));
        Map<String, Map<String, String>> events = new LinkedHashMap<>();
        for (String line : table.split("\n")) {
            if (!line.startsWith("| `hopscope.")) {
                continue;
            }
            String[] cells = line.split("\\|");
            String name = cells[1].trim().replace("`", "");
            Map<String, String> fields = new TreeMap<>();
            Matcher m = FIELD.matcher(cells[3]);
            while (m.find()) {
                fields.put(m.group(1), m.group(2));
            }
            events.put(name, fields);
        }
        return events;
    }

    static Map<String, Map<String, String>> agentEvents() throws Exception {
        Map<String, Map<String, String>> events = new LinkedHashMap<>();
        for (Class<? extends Event> c : eventClasses()) {
            EventType type = EventType.getEventType(c);
            Map<String, String> fields = new TreeMap<>();
            for (ValueDescriptor field : type.getFields()) {
                if (!STANDARD_FIELDS.contains(field.getName())) {
                    String t = field.getTypeName();
                    fields.put(field.getName(), t.substring(t.lastIndexOf('.') + 1));
                }
            }
            events.put(type.getName(), fields);
        }
        return events;
    }

    /** Every Event subclass in the events package, found on disk so that a new one cannot be missed. */
    @SuppressWarnings("unchecked")
    static Set<Class<? extends Event>> eventClasses() throws Exception {
        File dir = new File(RequestEvent.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toPath().resolve("io/hopscope/agent/events").toFile();
        Set<Class<? extends Event>> classes = new java.util.LinkedHashSet<>();
        for (String file : dir.list()) {
            if (file.endsWith(".class") && !file.contains("$")) {
                Class<?> c = Class.forName("io.hopscope.agent.events." + file.replace(".class", ""));
                if (Event.class.isAssignableFrom(c)) {
                    classes.add((Class<? extends Event>) c);
                }
            }
        }
        return classes;
    }

    @Test
    void everyContractEventIsDefinedWithExactlyItsFields() throws Exception {
        Map<String, Map<String, String>> contract = contract();
        assertThat(contract).hasSize(12);
        assertThat(agentEvents()).isEqualTo(contract);
    }

    /** The Wait kinds the agent gives a park are the ones the table's Wait row lists, in its order. */
    @Test
    void everyWaitKindOfAParkIsInTheContract() throws Exception {
        String readme = Files.readString(Path.of(System.getProperty("hopscope.readme", "../README.md")));
        String row = readme.lines().filter(l -> l.startsWith("| `hopscope.Wait` |")).findFirst().orElseThrow();
        String when = row.split("\\|")[2];
        Matcher m = Pattern.compile("`([\\w.]+)`").matcher(when.substring(when.indexOf("its blocker's:")));
        java.util.List<String> kinds = new java.util.ArrayList<>();
        while (m.find()) {
            kinds.add(m.group(1));
        }
        assertThat(kinds).isEqualTo(ParksInstrumentation.waitKinds());
    }

    @Test
    void theEventClassesAreTheOnesTheAgentWrites() throws Exception {
        assertThat(eventClasses()).containsExactlyInAnyOrder(RequestEvent.class, RequestStartEvent.class, SegmentEvent.class, HopEvent.class,
                SpanEvent.class, WaitEvent.class, NonBlockingWaitEvent.class, MountsEvent.class, AgentWorkEvent.class,
                AgentErrorEvent.class, ClockSyncEvent.class, AgentInfoEvent.class);
    }

    @Test
    void everyEventIsInCategoryHopscopeAndOnlyNonBlockingWaitHasStackTraces() throws Exception {
        for (Class<? extends Event> c : eventClasses()) {
            assertThat(c.getAnnotation(Category.class).value()).containsExactly("hopscope");
            EventType type = EventType.getEventType(c);
            boolean stackTrace = type.getSettingDescriptors().stream()
                    .anyMatch(s -> s.getName().equals("stackTrace") && s.getDefaultValue().equals("true"));
            assertThat(stackTrace).as(type.getName()).isEqualTo(c == NonBlockingWaitEvent.class);
            assertThat(type.getLabel()).isNotBlank();
            assertThat(type.getDescription()).isNotBlank();
        }
    }
}
