package io.hopscope.analyzer.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.ContractEvents;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.ValueDescriptor;
import org.junit.jupiter.api.Test;

/**
 * The README's contract table, the analyzer's own {@link HopscopeContract} and the tests' copy of the
 * agent's events ({@link ContractEvents}) must say the same.
 */
class RecordingContractTest {

    private static final Pattern ROW = Pattern.compile("^\\| `([\\w.]+)` \\|[^|]*\\| (.*) \\|$");
    private static final Pattern FIELD = Pattern.compile("`(\\w+)` \\((\\w+)\\)");
    private static final Set<String> STANDARD_FIELDS = Set.of("startTime", "duration", "eventThread", "stackTrace");

    /** The contract table's events and their fields (name to type's simple name), as the README lists them. */
    private static Map<String, Map<String, String>> readmeTable() throws Exception {
        String readme = Files.readString(Paths.readme());
        int begin = readme.indexOf("<!-- contract:begin -->");
        int end = readme.indexOf("<!-- contract:end -->");
        assertThat(begin).isPositive();
        assertThat(end).isGreaterThan(begin);
        Map<String, Map<String, String>> table = new LinkedHashMap<>();
        for (String line : readme.substring(begin, end).split("\n")) {
            Matcher row = ROW.matcher(line.strip());
            if (!row.matches()) {
                continue;
            }
            Map<String, String> fields = new LinkedHashMap<>();
            Matcher f = FIELD.matcher(row.group(2));
            while (f.find()) {
                fields.put(f.group(1), f.group(2));
            }
            table.put(row.group(1), fields);
        }
        return table;
    }

    @Test
    void readmeTableMatchesTheAnalyzersEventList() throws Exception {
        Map<String, Map<String, String>> table = readmeTable();
        assertThat(table).hasSize(12);
        assertThat(table).isEqualTo(HopscopeContract.EVENTS);
    }

    /**
     * The test copy of the agent's events ({@link ContractEvents}, which the tests write recordings
     * with) defines each of its events with exactly the contract's fields, so that no test reads a
     * recording the agent could not write. It has the events the tests need, not all of them.
     */
    @Test
    void theTestCopyOfTheEventsHasTheContractsFields() throws Exception {
        Map<String, Map<String, String>> table = readmeTable();
        Map<String, Map<String, String>> copy = new LinkedHashMap<>();
        for (Class<?> nested : ContractEvents.class.getDeclaredClasses()) {
            if (!Event.class.isAssignableFrom(nested)) {
                continue;
            }
            EventType type = EventType.getEventType(nested.asSubclass(Event.class));
            Map<String, String> fields = new LinkedHashMap<>();
            for (ValueDescriptor field : type.getFields()) {
                if (!STANDARD_FIELDS.contains(field.getName())) {
                    String t = field.getTypeName();
                    fields.put(field.getName(), t.substring(t.lastIndexOf('.') + 1));
                }
            }
            copy.put(type.getName(), fields);
            assertThat(nested.getAnnotation(Category.class).value()).as(type.getName()).containsExactly("hopscope");
        }
        assertThat(copy).as("ContractEvents' events").isNotEmpty();
        for (Map.Entry<String, Map<String, String>> event : copy.entrySet()) {
            assertThat(table).as("the contract's events").containsKey(event.getKey());
            assertThat(event.getValue()).as("fields of %s in ContractEvents", event.getKey())
                    .isEqualTo(table.get(event.getKey()));
        }
    }

    @Test
    void readmeNamesEveryWaitKindOfAPark() throws Exception {
        String readme = Files.readString(Paths.readme());
        String row = readme.lines().filter(l -> l.startsWith("| `hopscope.Wait` |")).findFirst().orElseThrow();
        String when = row.split("\\|")[2];
        String parks = when.substring(when.indexOf("its blocker's:"));
        List<String> kinds = new ArrayList<>();
        Matcher m = Pattern.compile("`([\\w.]+)`").matcher(parks);
        while (m.find()) {
            kinds.add(m.group(1));
        }
        assertThat(kinds).isEqualTo(HopscopeContract.PARK_WAIT_KINDS);
    }

    @Test
    void readmeJdkEventListMatches() throws Exception {
        String readme = Files.readString(Paths.readme());
        int at = readme.indexOf("JDK events the analyzer also reads");
        assertThat(at).isPositive();
        String para = readme.substring(at, readme.indexOf("\n\n", at));
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("`(jdk\\.\\w+)`").matcher(para);
        while (m.find()) {
            names.add(m.group(1));
        }
        assertThat(names).isEqualTo(HopscopeContract.JDK_EVENTS);
    }
}
