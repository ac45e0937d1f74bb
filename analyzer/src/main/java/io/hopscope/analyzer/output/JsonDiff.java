package io.hopscope.analyzer.output;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hopscope.analyzer.model.Diff;
import io.hopscope.analyzer.model.DiffRow;
import java.io.IOException;
import java.io.Writer;

/**
 * {@code diff --format json}: {@code a} and {@code b} (the recordings), {@code rows} (name, metric,
 * unit, a, b, ratio; ratio null when A is 0), {@code onlyInA}, {@code onlyInB}; with {@code --from}/{@code --to},
 * {@code windowA} and {@code windowB} (as report's {@code window}).
 */
public final class JsonDiff {

    private JsonDiff() {
    }

    public static void write(Diff diff, Writer out) throws IOException {
        ObjectNode root = JsonReport.MAPPER.createObjectNode();
        root.put("formatVersion", JsonReport.FORMAT_VERSION);
        root.set("a", JsonRecords.recording(diff.a()));
        root.set("b", JsonRecords.recording(diff.b()));
        if (!diff.windowA().isAll()) {
            root.set("windowA", JsonRecords.window(diff.windowA()));
            root.set("windowB", JsonRecords.window(diff.windowB()));
        }
        JsonRecords.array(root, "rows", diff.rows(), JsonDiff::row);
        JsonRecords.strings(root, "onlyInA", diff.onlyInA());
        JsonRecords.strings(root, "onlyInB", diff.onlyInB());
        JsonReport.MAPPER.writeValue(new JsonReport.NonClosingWriter(out), root);
        out.write(System.lineSeparator());
        out.flush();
    }

    private static void row(ObjectNode o, DiffRow r) {
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
}
