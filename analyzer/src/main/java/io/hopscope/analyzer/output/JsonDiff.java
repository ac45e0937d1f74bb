package io.hopscope.analyzer.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hopscope.analyzer.model.Diff;
import io.hopscope.analyzer.model.DiffRow;
import java.io.IOException;
import java.io.Writer;

/**
 * {@code diff --format json}: {@code a} and {@code b} (the recordings), {@code rows} (name, metric,
 * unit, a, b, ratio; ratio null when A is 0), {@code onlyInA}, {@code onlyInB}.
 */
public final class JsonDiff {

    private JsonDiff() {
    }

    public static void write(Diff diff, Writer out) throws IOException {
        ObjectNode root = JsonReport.MAPPER.createObjectNode();
        root.put("formatVersion", JsonReport.FORMAT_VERSION);
        root.set("a", JsonReport.recording(diff.a()));
        root.set("b", JsonReport.recording(diff.b()));
        ArrayNode rows = root.putArray("rows");
        for (DiffRow r : diff.rows()) {
            ObjectNode o = rows.addObject();
            o.put("name", r.name());
            o.put("metric", r.metric());
            o.put("unit", r.unit());
            o.put("a", r.a());
            o.put("b", r.b());
            if (Double.isNaN(r.ratio()) || Double.isInfinite(r.ratio())) {
                o.putNull("ratio");
            } else {
                o.put("ratio", r.ratio());
            }
        }
        ArrayNode onlyA = root.putArray("onlyInA");
        diff.onlyInA().forEach(onlyA::add);
        ArrayNode onlyB = root.putArray("onlyInB");
        diff.onlyInB().forEach(onlyB::add);
        JsonReport.MAPPER.writeValue(new JsonReport.NonClosingWriter(out), root);
        out.write(System.lineSeparator());
        out.flush();
    }
}
