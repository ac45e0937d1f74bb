package io.hopscope.analyzer.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.ContractEvents;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.ValueDescriptor;
import org.junit.jupiter.api.Test;

/** The README's contract table and the analyzer's own {@link HopscopeContract} must say the same. */
class RecordingContractTest {

    private static final Pattern ROW = Pattern.compile("^\\| `([\\w.]+)` \\|[^|]*\\| (.*) \\|$");
    private static final Pattern FIELD = Pattern.compile("`(\\w+)` \\((\\w+)\\)");

    @Test
    void readmeTableMatchesTheAnalyzersEventList() throws Exception {
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
        assertThat(table).hasSize(12);
        assertThat(table).isEqualTo(HopscopeContract.EVENTS);
    }

    /**
     * The tests' copy of the agent's events ({@link ContractEvents}, which tests write recordings with) has
     * exactly the contract's fields for each event it defines, as the agent's own test checks its classes.
     */
    @Test
    void theTestsCopyOfTheEventsHasTheContractsFields() {
        Map<String, Map<String, String>> copy = new LinkedHashMap<>();
        for (Class<?> c : ContractEvents.class.getDeclaredClasses()) {
            if (!Event.class.isAssignableFrom(c)) {
                continue;
            }
            EventType type = EventType.getEventType(c.asSubclass(Event.class));
            Map<String, String> fields = new LinkedHashMap<>();
            for (ValueDescriptor field : type.getFields()) {
                if (!List.of("startTime", "duration", "eventThread", "stackTrace").contains(field.getName())) {
                    String t = field.getTypeName();
                    fields.put(field.getName(), t.substring(t.lastIndexOf('.') + 1));
                }
            }
            copy.put(type.getName(), fields);
        }
        assertThat(copy).hasSizeGreaterThanOrEqualTo(8);
        copy.forEach((event, fields) -> assertThat(fields).as(event).isEqualTo(HopscopeContract.EVENTS.get(event)));
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
