package io.hopscope.analyzer.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One sample line of Prometheus' text exposition format, {@code name{label="value",...} value}: what a
 * Prometheus server would store from a scrape of the collector's Prometheus exporter.
 */
public record PrometheusSample(String name, Map<String, String> labels, double value) {

    /** Parses one line that is not a comment; label values may hold escaped quotes, backslashes and newlines. */
    public static PrometheusSample parse(String line) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        Map<String, String> labels = new LinkedHashMap<>();
        int at;
        String name;
        if (brace >= 0 && (space < 0 || brace < space)) {
            name = line.substring(0, brace);
            at = brace + 1;
            while (line.charAt(at) != '}') {
                int eq = line.indexOf('=', at);
                String key = line.substring(at, eq);
                StringBuilder value = new StringBuilder();
                int k = eq + 2; // past ="
                for (; line.charAt(k) != '"'; k++) {
                    char c = line.charAt(k);
                    if (c == '\\') {
                        char next = line.charAt(++k);
                        value.append(next == 'n' ? '\n' : next);
                    } else {
                        value.append(c);
                    }
                }
                labels.put(key, value.toString());
                at = k + 1;
                if (line.charAt(at) == ',') {
                    at++;
                }
            }
            at++;
        } else {
            name = line.substring(0, space);
            at = space;
        }
        String[] rest = line.substring(at).strip().split("\\s+");
        return new PrometheusSample(name, Map.copyOf(labels), Double.parseDouble(rest[0]));
    }
}
