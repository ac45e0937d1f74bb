package io.hopscope.analyzer.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A schema check of the Chrome Trace Event format as its specification and the Perfetto importer read
 * it: the object form with {@code traceEvents}; per phase the required fields and their types; flow
 * starts and finishes pairing by id; a thread_name for every thread that has events.
 */
public final class TraceSchema {

    private static final Set<String> PHASES = Set.of("X", "B", "E", "i", "I", "s", "t", "f", "M", "C");

    private TraceSchema() {
    }

    /** Every problem found, empty when the trace is well-formed. */
    public static List<String> check(JsonNode trace) {
        List<String> problems = new ArrayList<>();
        JsonNode events = trace.get("traceEvents");
        if (events == null || !events.isArray()) {
            problems.add("no traceEvents array");
            return problems;
        }
        Map<Long, Integer> flowStarts = new HashMap<>();
        Map<Long, Integer> flowFinishes = new HashMap<>();
        Set<Long> named = new HashSet<>();
        Set<Long> used = new HashSet<>();
        List<JsonNode> places = new ArrayList<>();
        List<JsonNode> offCpu = new ArrayList<>();
        int i = 0;
        for (JsonNode e : events) {
            String at = "event " + i++ + " " + e;
            for (String field : new String[] {"name", "ph", "pid", "tid"}) {
                if (!e.hasNonNull(field)) {
                    problems.add(at + ": no " + field);
                }
            }
            if (!e.path("name").isTextual() || !e.path("ph").isTextual() || !e.path("pid").isIntegralNumber()
                    || !e.path("tid").isIntegralNumber()) {
                problems.add(at + ": name/ph must be strings, pid/tid integers");
                continue;
            }
            String ph = e.get("ph").asText();
            if (!PHASES.contains(ph)) {
                problems.add(at + ": unknown ph " + ph);
            }
            if (!ph.equals("M")) {
                used.add(e.get("tid").asLong());
                if (!e.path("ts").isNumber() || e.get("ts").asDouble() < 0) {
                    problems.add(at + ": ts must be a number >= 0");
                }
            }
            switch (ph) {
                case "X" -> {
                    if (!e.path("dur").isNumber() || e.get("dur").asDouble() < 0) {
                        problems.add(at + ": complete event needs dur >= 0");
                        continue;
                    }
                    switch (e.path("cat").asText()) {
                        case "segment", "wait" -> places.add(e);
                        case "offcpu" -> offCpu.add(e);
                        default -> {
                        }
                    }
                }
                case "s", "f" -> {
                    if (!e.path("id").isIntegralNumber() || !e.path("cat").isTextual()) {
                        problems.add(at + ": flow event needs an integer id and a cat");
                        continue;
                    }
                    (ph.equals("s") ? flowStarts : flowFinishes).merge(e.get("id").asLong(), 1, Integer::sum);
                    if (ph.equals("f") && !"e".equals(e.path("bp").asText())) {
                        problems.add(at + ": flow finish should bind to its enclosing slice (bp: e)");
                    }
                }
                case "M" -> {
                    if (e.get("name").asText().equals("thread_name")) {
                        if (!e.path("args").path("name").isTextual()) {
                            problems.add(at + ": thread_name needs args.name");
                        }
                        named.add(e.get("tid").asLong());
                    }
                }
                default -> {
                }
            }
        }
        flowStarts.forEach((id, n) -> {
            if (n != 1 || flowFinishes.getOrDefault(id, 0) != 1) {
                problems.add("flow id " + id + ": " + n + " start(s), " + flowFinishes.getOrDefault(id, 0) + " finish(es)");
            }
        });
        flowFinishes.keySet().stream().filter(id -> !flowStarts.containsKey(id))
                .forEach(id -> problems.add("flow id " + id + ": a finish without a start"));
        // hopscope's own rule: an off-CPU slice lies inside a segment or wait of its request on its thread,
        // so that it nests there (trace viewers draw only properly nested slices of one track).
        // Indexed by thread and request: a scan of every place per slice took minutes on a 10 s trace.
        Map<List<Long>, List<JsonNode>> placesOf = new HashMap<>();
        for (JsonNode p : places) {
            placesOf.computeIfAbsent(List.of(p.get("tid").asLong(), p.path("args").path("request").asLong()),
                    k -> new ArrayList<>()).add(p);
        }
        for (JsonNode o : offCpu) {
            if (!o.path("args").path("request").isIntegralNumber()) {
                problems.add("off-CPU slice " + o + ": no args.request");
                continue;
            }
            List<JsonNode> candidates = placesOf.getOrDefault(
                    List.of(o.get("tid").asLong(), o.get("args").get("request").asLong()), List.of());
            boolean inside = candidates.stream().anyMatch(p -> p.get("ts").asDouble() <= o.get("ts").asDouble() + 1e-3
                    && o.get("ts").asDouble() + o.get("dur").asDouble() <= p.get("ts").asDouble() + p.get("dur").asDouble() + 1e-3);
            if (!inside) {
                problems.add("off-CPU slice " + o + ": not inside a segment or wait of its request on its thread");
            }
        }
        used.stream().filter(tid -> !named.contains(tid)).forEach(tid -> problems.add("tid " + tid + ": no thread_name"));
        return problems;
    }
}
