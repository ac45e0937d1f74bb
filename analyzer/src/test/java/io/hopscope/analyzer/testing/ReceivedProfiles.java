package io.hopscope.analyzer.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a Collector's file exporter wrote of profile exports (OTLP JSON, one export a line) and of metrics,
 * read back the way the tests of {@code live}'s profiles need it: one {@link Window} per export, and the
 * last value of a counter per attribute.
 */
public final class ReceivedProfiles {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReceivedProfiles() {
    }

    /**
     * One profile export: its service, the span its profiles cover (epoch nanos), the sum of each sample
     * type's values, and the {@code requests} type's sum per request name.
     */
    public record Window(String service, long startNanos, long durationNanos, Map<String, Long> totals,
                         Map<String, Long> requestsByName) {

        public long endNanos() {
            return startNanos + durationNanos;
        }

        public long requests() {
            return totals.getOrDefault("requests", 0L);
        }
    }

    /** Each line of the profiles file as a window, in the order the Collector received them. */
    public static List<Window> windows(List<String> lines) throws IOException {
        List<Window> windows = new ArrayList<>();
        for (String line : lines) {
            JsonNode export = JSON.readTree(line);
            JsonNode d = export.path("dictionary");
            List<String> strings = new ArrayList<>();
            d.path("stringTable").forEach(s -> strings.add(s.asText()));
            for (JsonNode rp : export.path("resourceProfiles")) {
                String service = null;
                for (JsonNode a : rp.path("resource").path("attributes")) {
                    if (key(a, strings).equals("service.name")) {
                        service = text(a.path("value"), strings);
                    }
                }
                long start = -1;
                long duration = -1;
                Map<String, Long> totals = new TreeMap<>();
                Map<String, Long> byName = new TreeMap<>();
                for (JsonNode scope : rp.path("scopeProfiles")) {
                    for (JsonNode p : scope.path("profiles")) {
                        String type = strings.get(p.path("sampleType").path("typeStrindex").asInt());
                        start = p.path("timeUnixNano").asLong();
                        duration = p.path("durationNano").asLong();
                        for (JsonNode s : p.path("samples")) {
                            long value = s.path("values").get(0).asLong();
                            totals.merge(type, value, Long::sum);
                            if (type.equals("requests")) {
                                for (JsonNode i : s.path("attributeIndices")) {
                                    JsonNode a = d.path("attributeTable").get(i.asInt());
                                    if (key(a, strings).equals("hopscope.request.name")) {
                                        byName.merge(text(a.path("value"), strings), value, Long::sum);
                                    }
                                }
                            }
                        }
                    }
                }
                windows.add(new Window(service, start, duration, totals, byName));
            }
        }
        return windows;
    }

    /**
     * The values of counter {@code name} by its one attribute's value, in the last export of the metrics file
     * from {@code service} that has it.
     */
    public static Map<String, Long> lastCounter(List<String> metricLines, String service, String name) throws IOException {
        Map<String, Long> last = new HashMap<>();
        for (String line : metricLines) {
            for (JsonNode rm : JSON.readTree(line).path("resourceMetrics")) {
                if (!rm.path("resource").path("attributes").toString().contains("\"" + service + "\"")) {
                    continue;
                }
                for (JsonNode scope : rm.path("scopeMetrics")) {
                    for (JsonNode m : scope.path("metrics")) {
                        if (m.path("name").asText().equals(name)) {
                            Map<String, Long> values = new HashMap<>();
                            m.path("sum").path("dataPoints").forEach(p -> values.put(
                                    p.path("attributes").get(0).path("value").path("stringValue").asText(),
                                    p.path("asInt").asLong()));
                            last = values;
                        }
                    }
                }
            }
        }
        return last;
    }

    /** The metrics exports of {@code service} in the metrics file. */
    public static long metricExports(List<String> metricLines, String service) throws IOException {
        long n = 0;
        for (String line : metricLines) {
            for (JsonNode rm : JSON.readTree(line).path("resourceMetrics")) {
                if (rm.path("resource").path("attributes").toString().contains("\"" + service + "\"")) {
                    n++;
                }
            }
        }
        return n;
    }

    // The collector's JSON may put any string in the dictionary's table: a key or a value is then its index.
    private static String key(JsonNode keyValue, List<String> strings) {
        return keyValue.has("key") ? keyValue.path("key").asText() : strings.get(keyValue.path("keyStrindex").asInt());
    }

    private static String text(JsonNode anyValue, List<String> strings) {
        return anyValue.has("stringValue") ? anyValue.path("stringValue").asText()
                : anyValue.has("intValue") ? anyValue.path("intValue").asText()
                : strings.get(anyValue.path("stringValueStrindex").asInt());
    }
}
