package io.hopscope.analyzer.output;

import com.fasterxml.jackson.core.JsonGenerator;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.OffCpuInterval;
import io.hopscope.analyzer.model.OffCpuOverlap;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.RequestsKept;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.Wait;
import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code hopscope trace}: the Chrome Trace Event format (JSON object form) that the Perfetto UI and
 * {@code chrome://tracing} load. One track per thread, a complete slice ({@code ph: X}) per segment,
 * policy spans and waits as slices on their thread, and each hop as a flow arrow: {@code ph: s} on the
 * handing-over (or waking) thread, {@code ph: f} with {@code bp: e} on the receiving one, one id each.
 *
 * <p>A server's hand-over of a request to the thread that runs it is the arrow {@code hop N server queue}
 * from the server's thread (its poller), which has no other slice of the request. A request's outbound
 * calls ({@code boundary} spans) are slices on their thread like its policies, inside its segment there.
 *
 * <p>Each flow end sits on a 1 us "hop" slice of its own: trace viewers attach a flow event to the slice
 * enclosing it, and a waker's segment may have ended, or the receiver's not yet begun, at that instant.
 * Timestamps are microseconds from the recording's first event, so that they stay exact in a double.
 *
 * <p>With eBPF data, each part of an off-CPU interval inside a segment or wait is a slice of category
 * {@code offcpu} in it ({@code off-CPU (futex)}, {@code off-CPU (runnable)}, {@code off-CPU (S)}), with
 * its run-queue part as a {@code run queue} slice nested inside: one slice per place, never across a
 * place's edge, so that they nest in the segment and wait slices.
 */
public final class TraceJson {

    static final int PID = 1;
    static final String OFF_CPU = "offcpu";
    private static final double HOP_SLICE_MICROS = 1;

    private final JsonGenerator g;
    private final long originEpochNanos;
    private final Map<Long, ThreadRef> threads = new LinkedHashMap<>();
    private long flowId;

    private TraceJson(JsonGenerator g, long originEpochNanos) {
        this.g = g;
        this.originEpochNanos = originEpochNanos;
    }

    public static void write(Report report, Writer out) throws IOException {
        write(report, List.of(), out);
    }

    /** The trace with {@code offCpu} (parts of off-CPU intervals in the report's requests) as slices. */
    public static void write(Report report, List<OffCpuOverlap> offCpu, Writer out) throws IOException {
        try (JsonGenerator g = JsonReport.MAPPER.getFactory().createGenerator(new JsonReport.NonClosingWriter(out))) {
            TraceJson trace = new TraceJson(g, report.recording().startEpochNanos());
            g.writeStartObject();
            g.writeStringField("displayTimeUnit", "ms");
            g.writeArrayFieldStart("traceEvents");
            for (Request r : report.requests()) {
                trace.request(r);
            }
            for (OffCpuOverlap o : offCpu) {
                trace.offCpu(o);
            }
            trace.metadata(report.recording().file());
            g.writeEndArray();
            // What the viewers show as the trace's metadata: which requests it draws, and the window.
            g.writeObjectFieldStart("otherData");
            if (report.kept() != RequestsKept.NOT_STATED) {
                g.writeStringField("requests", KeptText.line(report.kept()));
            }
            if (!report.window().isAll()) {
                g.writeStringField("window", WindowText.line(report.window()));
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        out.write(System.lineSeparator());
    }

    private void request(Request r) throws IOException {
        String label = r.name() + " #" + r.id();
        for (Segment s : r.segments()) {
            slice(s.thread(), label, "segment", s.startEpochNanos(), s.endEpochNanos(), r, "kind", s.kind());
        }
        for (Span s : r.spans().list()) {
            if (s.thread() != null) {
                slice(s.thread(), shortName(s.name()), s.kind(), s.startEpochNanos(), s.endEpochNanos(), r, "class", s.name());
            }
        }
        for (Wait w : r.waits().list()) {
            if (w.thread() != null) {
                slice(w.thread(), "wait " + w.kind(), "wait", w.startEpochNanos(), w.endEpochNanos(), r, "waker",
                        w.waker() == null ? null : w.waker().label());
            }
        }
        int n = 0;
        for (Hop h : r.hops().list()) {
            n++;
            if (h.from() == ThreadRef.UNKNOWN || h.to() == ThreadRef.UNKNOWN) {
                continue; // a hop without both ends has nowhere to draw its arrow
            }
            long id = ++flowId;
            // A server's hand-over is named as the figure it is, the server queue, not as a handoff of the application's.
            String name = "hop " + n + " " + (h.serverQueue() ? "server queue" : h.kind());
            double from = micros(h.departureEpochNanos());
            double to = micros(h.arrivalEpochNanos());
            hopSlice(h.from(), name + " out", from, r, h);
            flow("s", h.from(), name, from, id);
            hopSlice(h.to(), name + " in", to, r, h);
            flow("f", h.to(), name, to, id);
        }
    }

    private void offCpu(OffCpuOverlap o) throws IOException {
        OffCpuInterval i = o.interval();
        // The recording's ThreadRef when the thread has a track already; same tid, so same track either way.
        ThreadRef t = new ThreadRef(-1, i.tid(), o.thread());
        event("X", t, offCpuName(i), OFF_CPU, micros(o.fromEpochNanos()));
        g.writeNumberField("dur", o.nanos() / 1e3);
        g.writeObjectFieldStart("args");
        g.writeNumberField("request", o.requestId());
        g.writeStringField("requestName", o.requestName());
        g.writeStringField("during", o.during());
        g.writeStringField("state", i.state());
        g.writeNumberField("offCpuMicros", i.offCpuNanos() / 1e3);
        if (i.runQueueNanos() >= 0) {
            g.writeNumberField("runQueueMicros", i.runQueueNanos() / 1e3);
        }
        g.writeStringField("waker", o.waker());
        g.writeBooleanField("futexWait", i.futexWait());
        g.writeBooleanField("futexWake", i.futexWake());
        g.writeEndObject();
        g.writeEndObject();
        long rqStart = i.runQueueStartEpochNanos();
        long from = Math.max(o.fromEpochNanos(), rqStart);
        if (rqStart >= 0 && from < o.toEpochNanos()) {
            event("X", t, "run queue", OFF_CPU, micros(from));
            g.writeNumberField("dur", (o.toEpochNanos() - from) / 1e3);
            g.writeObjectFieldStart("args");
            g.writeNumberField("request", o.requestId());
            g.writeStringField("waker", o.waker());
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    static String offCpuName(OffCpuInterval i) {
        if (i.futexWait()) {
            return "off-CPU (futex)";
        }
        if (i.state() == null) {
            return "off-CPU";
        }
        return i.state().startsWith("R") ? "off-CPU (runnable)" : "off-CPU (" + i.state() + ")";
    }

    private void slice(ThreadRef t, String name, String cat, long startNanos, long endNanos, Request r,
                       String argName, String argValue) throws IOException {
        event("X", t, name, cat, micros(startNanos));
        g.writeNumberField("dur", Math.max(0, endNanos - startNanos) / 1e3);
        g.writeObjectFieldStart("args");
        g.writeNumberField("request", r.id());
        g.writeStringField("requestName", r.name());
        if (r.traceId() != null) {
            g.writeStringField("traceId", r.traceId());
            if (r.spanId() != null) {
                g.writeStringField("spanId", r.spanId());
            }
        }
        if (argValue != null) {
            g.writeStringField(argName, argValue);
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private void hopSlice(ThreadRef t, String name, double tsMicros, Request r, Hop h) throws IOException {
        event("X", t, name, "hop", tsMicros);
        g.writeNumberField("dur", HOP_SLICE_MICROS);
        g.writeObjectFieldStart("args");
        g.writeNumberField("request", r.id());
        g.writeStringField("from", h.from().label());
        g.writeStringField("to", h.to().label());
        g.writeNumberField("delayMicros", h.delayNanos() / 1e3);
        if (h.scheduledNanos() > 0) {
            g.writeNumberField("scheduledMicros", h.scheduledNanos() / 1e3);
        }
        if (h.via() != null) {
            g.writeStringField("via", h.via());
        }
        if (h.serverQueue()) {
            g.writeBooleanField("serverQueue", true);
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private void flow(String ph, ThreadRef t, String name, double tsMicros, long id) throws IOException {
        event(ph, t, name, "hop", tsMicros);
        g.writeNumberField("id", id);
        if (ph.equals("f")) {
            g.writeStringField("bp", "e");
        }
        g.writeEndObject();
    }

    // Opens the event object with the fields every event has; the caller adds its own and closes it.
    private void event(String ph, ThreadRef t, String name, String cat, double tsMicros) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("cat", cat == null ? "span" : cat);
        g.writeStringField("ph", ph);
        g.writeNumberField("ts", tsMicros);
        g.writeNumberField("pid", PID);
        g.writeNumberField("tid", tid(t));
    }

    private void metadata(String file) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", "process_name");
        g.writeStringField("ph", "M");
        g.writeNumberField("ts", 0);
        g.writeNumberField("pid", PID);
        g.writeNumberField("tid", 0);
        g.writeObjectFieldStart("args");
        g.writeStringField("name", "hopscope " + file);
        g.writeEndObject();
        g.writeEndObject();
        for (Map.Entry<Long, ThreadRef> e : threads.entrySet()) {
            g.writeStartObject();
            g.writeStringField("name", "thread_name");
            g.writeStringField("ph", "M");
            g.writeNumberField("ts", 0);
            g.writeNumberField("pid", PID);
            g.writeNumberField("tid", e.getKey());
            g.writeObjectFieldStart("args");
            g.writeStringField("name", e.getValue().label());
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    // The Linux thread id where the recording has it (it matches eBPF output), else the Java id.
    private long tid(ThreadRef t) {
        long tid = t.osId() > 0 ? t.osId() : t.javaId();
        threads.putIfAbsent(tid, t);
        return tid;
    }

    private double micros(long epochNanos) {
        return (epochNanos - originEpochNanos) / 1e3;
    }

    static String shortName(String className) {
        if (className == null) {
            return "?";
        }
        int dot = className.lastIndexOf('.');
        return dot >= 0 ? className.substring(dot + 1) : className;
    }
}
