package io.hopscope.analyzer.output;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.RequestsKept;
import java.io.IOException;
import java.io.Writer;

/**
 * {@code report --format json}: the stable machine format, streamed one request at a time. Each
 * record's fields are written by {@link JsonRecords} (names written out one by one, documented in
 * docs/json.md); the eBPF fields by {@link KernelJson}.
 */
public final class JsonReport {

    /** Bumped when a field changes meaning or disappears; new fields do not bump it. */
    public static final int FORMAT_VERSION = 1;

    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {
    }

    public static void write(Report report, Writer out) throws IOException {
        write(report, null, out);
    }

    /** With {@code kernel} (from {@code --bpf}, may be null): its fields in the summary and requests, and a {@code kernel} object. */
    public static void write(Report report, KernelReport kernel, Writer out) throws IOException {
        // Streamed: the requests are written one at a time, never all as one tree.
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(new NonClosingWriter(out))) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeNumberField("formatVersion", FORMAT_VERSION);
            g.writeFieldName("recording");
            MAPPER.writeTree(g, JsonRecords.recording(report.recording()));
            if (!report.window().isAll()) {
                g.writeFieldName("window");
                MAPPER.writeTree(g, JsonRecords.window(report.window()));
            }
            g.writeStringField("warmup", report.warmup().name());
            g.writeFieldName("agentWork");
            MAPPER.writeTree(g, JsonRecords.agentWork(report.agentWork()));
            if (kernel != null) {
                g.writeFieldName("kernel");
                MAPPER.writeTree(g, KernelJson.info(kernel));
            }
            boolean perRequest = kernel != null && kernel.perRequest();
            g.writeArrayFieldStart("summary");
            for (NameSummary s : report.summary()) {
                ObjectNode n = JsonRecords.summary(s);
                if (perRequest) {
                    KernelJson.addSummary(n, kernel.summary(s.name()));
                }
                MAPPER.writeTree(g, n);
            }
            g.writeEndArray();
            if (report.kept() != RequestsKept.NOT_STATED) {
                g.writeFieldName("requestsKept");
                MAPPER.writeTree(g, JsonRecords.kept(report.kept()));
            }
            g.writeArrayFieldStart("requests");
            for (Request r : report.requests()) {
                ObjectNode n = JsonRecords.request(r);
                if (perRequest) {
                    KernelJson.addRequest(n, kernel.request(r.id()));
                }
                MAPPER.writeTree(g, n);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("warmupRequests");
            for (Request r : report.warmupRequests()) {
                ObjectNode n = JsonRecords.request(r);
                if (perRequest) {
                    KernelJson.addRequest(n, kernel.request(r.id()));
                }
                MAPPER.writeTree(g, n);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.write(System.lineSeparator());
        out.flush();
    }

    /** Jackson closes the writer it is given; the caller owns it (it may be stdout). */
    static final class NonClosingWriter extends java.io.FilterWriter {
        NonClosingWriter(Writer out) {
            super(out);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
