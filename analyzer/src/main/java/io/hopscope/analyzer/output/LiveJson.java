package io.hopscope.analyzer.output;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.model.LiveInterval;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * One interval of {@code hopscope live --json} as one line of JSON. The keys and their order are a
 * contract (docs/cli.md); new keys go after the listed ones. A per-request figure is null when no
 * request of the name finished in the interval.
 */
public final class LiveJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private LiveJson() {
    }

    public static String line(LiveInterval interval) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("epochMillis", interval.epochMillis());
            g.writeNumberField("liveThreads", interval.liveThreads());
            g.writeNumberField("inFlight", interval.inFlight());
            g.writeNumberField("gcPauseNanos", interval.gcPauseNanos());
            g.writeArrayFieldStart("names");
            for (LiveInterval.Name n : interval.names()) {
                g.writeStartObject();
                g.writeStringField("name", n.name());
                g.writeNumberField("started", n.started());
                g.writeNumberField("finished", n.finished());
                g.writeNumberField("inFlight", n.inFlight());
                number(g, "meanNanos", n.meanNanos());
                number(g, "p99Nanos", n.p99Nanos());
                g.writeFieldName("hopsPerRequest");
                if (n.hopsPerRequest() == null) {
                    g.writeNull();
                } else {
                    g.writeNumber(n.hopsPerRequest());
                }
                number(g, "queueDelayNanos", n.queueDelayNanos());
                number(g, "wakeLatencyNanos", n.wakeLatencyNanos());
                number(g, "allocatedBytesPerRequest", n.allocatedBytesPerRequest());
                number(g, "lockNanosPerRequest", n.lockNanosPerRequest());
                g.writeNumberField("measured", n.measured());
                g.writeObjectFieldStart("hopsPerRequestByKind");
                for (Map.Entry<String, Double> k : n.hopsPerRequestByKind().entrySet()) {
                    g.writeNumberField(k.getKey(), k.getValue());
                }
                g.writeEndObject();
                g.writeNumberField("finishedBegunBefore", n.finishedBegunBefore());
                number(g, "serverQueueNanos", n.serverQueueNanos());
                number(g, "serverQueueMaxNanos", n.serverQueueMaxNanos());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void number(JsonGenerator g, String field, Long value) throws IOException {
        if (value == null) {
            g.writeNullField(field);
        } else {
            g.writeNumberField(field, value);
        }
    }
}
