package io.hopscope.analyzer.output;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.Hops;
import io.hopscope.analyzer.model.KernelReport;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.model.Warmup;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code report --format html}: one self-contained page from the resource template {@code report.html}
 * (its script draws the tables, the timelines as inline SVG and the flame graph frames; nothing is
 * fetched). The report goes into the template as one JSON object in a {@code <script
 * type="application/json">} element, escaped for that place, and the script only ever sets text
 * ({@code textContent}, SVG text nodes, {@code srcdoc}), so no string from the recording becomes markup.
 * A server request's timeline starts with the lane of the thread its server handed it over from, drawn
 * as that hand-over's origin only (it runs none of the request).
 */
public final class HtmlReport {

    static final String TEMPLATE = "report.html";
    private static final String DATA_MARK = "/*HOPSCOPE_DATA*/";
    private static final String TITLE_MARK = "<!--HOPSCOPE_TITLE-->";

    private HtmlReport() {
    }

    /** A rendered flame graph page to embed, with what it shows. */
    public record Flame(String title, String html) {
    }

    /**
     * Writes the page; {@code worst} is how many of the report's requests (in its order) get a timeline,
     * with the kernel view of {@code kernel} ({@code report --bpf}; null: none).
     */
    public static void write(Report report, int worst, List<Flame> flames, KernelReport kernel, Writer out)
            throws IOException {
        write(report, worst, flames, kernel, null, out);
    }

    /** The same, each request's trace id linked by {@code traceUrl} ({@code --trace-url}; null: no links). */
    public static void write(Report report, int worst, List<Flame> flames, KernelReport kernel, TraceUrl traceUrl,
                             Writer out) throws IOException {
        ObjectNode data = JsonReport.MAPPER.createObjectNode();
        RecordingInfo info = report.recording();
        data.put("file", info.file());
        data.put("start", info.startEpochNanos() == 0 ? "-" : Units.epoch(info.startEpochNanos()));
        data.put("length", Units.nanos(info.endEpochNanos() - info.startEpochNanos()));
        data.put("agent", info.agentVersion() == null ? "none" : info.agentVersion());
        data.put("window", report.window().isAll() ? "" : WindowText.line(report.window()));
        data.put("agentWork", report.agentWork().any() ? TextReport.agentWork(report.agentWork()) : "");
        String kinds = TextReport.kinds(report);
        data.put("kinds", kinds == null ? "" : kinds);
        ArrayNode warnings = data.putArray("warnings");
        info.warnings().forEach(warnings::add);
        ArrayNode summary = data.putArray("summary");
        for (NameSummary s : report.summary()) {
            summary.add(summary(s));
        }
        // The page's report holds every request (its hops flame graph folds them all): with --warmup
        // apart, the warm-up ones among them go to their own list, as the worst warm-up ones of a
        // report that ranked them apart already are.
        boolean apart = report.warmup() == Warmup.apart && report.warmupRequestCount() > 0;
        List<Request> warmupRequests = new ArrayList<>(report.warmupRequests());
        ArrayNode requests = data.putArray("requests");
        int n = 0;
        for (Request r : report.requests()) {
            if (apart && r.warmup()) {
                if (warmupRequests.size() < Warmup.SHOWN) {
                    warmupRequests.add(r);
                }
                continue;
            }
            if (n >= worst) {
                if (!apart || warmupRequests.size() >= Warmup.SHOWN) {
                    break;
                }
                continue;
            }
            n++;
            ObjectNode request = request(r);
            if (traceUrl != null) {
                request.put("traceUrl", traceUrl.link(r.traceId(), r.spanId()));
            }
            if (kernel != null && kernel.perRequest()) {
                request.set("kernel", KernelHtml.request(kernel.request(r.id())));
            }
            requests.add(request);
        }
        // With --warmup apart the worst list above is the steady requests; the worst warm-up ones get
        // a short part of their own (no timeline: what they waited on is the class loads, not hops).
        data.put("warmupApart", apart);
        data.put("warmupCount", report.warmupRequestCount());
        ArrayNode warmups = data.putArray("warmupRequests");
        for (Request r : warmupRequests) {
            warmups.addObject().put("id", r.id()).put("name", r.name())
                    .put("outcome", r.outcome() + (r.error() != null ? " (" + r.error() + ")" : ""))
                    .put("duration", Units.nanos(r.durationNanos())).put("started", Units.epoch(r.startEpochNanos()))
                    .put("hops", r.hops().count()).put("warmup", TextReport.warmup(r))
                    .put("agentWork", TextReport.agentWork(r.agentWork()));
        }
        if (kernel != null) {
            data.set("kernel", KernelHtml.info(kernel, report.summary()));
        }
        ArrayNode flameNodes = data.putArray("flames");
        for (Flame f : flames) {
            flameNodes.addObject().put("title", f.title()).put("html", f.html());
        }
        String page = template()
                .replace(TITLE_MARK, HtmlEscape.text("hopscope report: " + info.file()))
                .replace(DATA_MARK, HtmlEscape.scriptJson(
                        JsonReport.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(data)));
        out.write(page);
    }

    private static ObjectNode summary(NameSummary s) {
        ObjectNode o = JsonReport.MAPPER.createObjectNode();
        o.put("name", s.name());
        o.put("count", s.count());
        o.put("rps", String.format(java.util.Locale.ROOT, "%.1f", s.throughputPerSecond()));
        o.put("p50", Units.nanos(s.p50Nanos()));
        o.put("p90", Units.nanos(s.p90Nanos()));
        o.put("p99", Units.nanos(s.p99Nanos()));
        o.put("max", Units.nanos(s.maxNanos()));
        o.put("hops", String.format(java.util.Locale.ROOT, "%.1f/%d", s.meanHops(), s.maxHops()));
        o.put("queue", Units.nanos(s.meanQueueDelayNanos()));
        o.put("wake", Units.nanos(s.meanWakeLatencyNanos()));
        o.put("blocked", Units.nanos(s.meanBlockedNanos()));
        o.put("alloc", Units.bytes(s.meanAllocatedBytes()));
        o.put("lock", Units.nanos(s.meanLockNanos()));
        o.put("nb", Units.percent(s.nonBlockingShare()));
        o.put("mounts", s.meanMounts() > 0 ? String.format(java.util.Locale.ROOT, "%.1f", s.meanMounts()) : "");
        o.put("pinned", s.meanPinnedNanos() > 0 ? Units.nanos(s.meanPinnedNanos()) : "");
        o.put("errors", s.errors());
        o.put("explained", TextReport.explained(s));
        o.put("warmup", s.warmupRequests());
        o.put("agentWork", s.agentWork().any() ? TextReport.agentWork(s.agentWork()) : "");
        o.put("server", s.server());
        o.put("serverQueueMean", s.server() ? Units.nanos(s.serverQueue().meanNanos()) : "");
        o.put("serverQueue", s.server() ? TextReport.serverQueue(s) : "");
        return o;
    }

    private static ObjectNode request(Request r) {
        ObjectNode o = JsonReport.MAPPER.createObjectNode();
        o.put("id", r.id());
        o.put("name", r.name());
        o.put("kind", r.kind());
        o.put("word", TextReport.requestWord(r));
        o.put("url", r.url());
        o.put("traceId", r.traceId());
        o.put("spanId", r.spanId());
        o.put("outcome", r.outcome() + (r.error() != null ? " (" + r.error() + ")" : ""));
        o.put("duration", Units.nanos(r.durationNanos()));
        o.put("durationNanos", r.durationNanos());
        o.put("started", Units.epoch(r.startEpochNanos()));
        o.put("hops", r.hops().count());
        o.put("threads", r.threads().size());
        // "server queue 2.50 ms, " for a server request, first of its figures; "" otherwise.
        o.put("serverQueue", TextReport.serverQueue(r));
        String calls = TextReport.calls(r.spans());
        o.put("calls", calls == null ? "" : calls);
        o.put("blocked", Units.nanos(r.waits().blockedNanos()));
        o.put("queue", Units.nanos(r.hops().queueDelayNanos()));
        o.put("wake", Units.nanos(r.hops().wakeLatencyNanos()));
        // The hops by kind ("2 hop(s) (1 handoff, 1 return), ") and the return delay, when there are any.
        Hops totals = r.hops();
        o.put("hopKinds", totals.count() > 0 ? totals.count() + " hop(s)" + TextReport.hopKinds(totals) + ", " : "");
        if (totals.returns() > 0) {
            o.put("ret", Units.nanos(totals.returnDelayNanos()));
        }
        o.put("alloc", Units.bytes(r.allocation().bytes()) + (r.allocation().estimatedBytes() == 0 ? ""
                : " (" + Units.bytes(r.allocation().estimatedBytes()) + " estimated)"));
        o.put("lock", Units.nanos(r.lock().nanos()));
        o.put("gc", Units.nanos(r.gc().nanos()));
        o.put("carriers", r.carriers().any() ? TextReport.carriers(r.carriers()) : "");
        o.put("detail", r.detailKept());
        o.put("agentWork", r.agentWork().any() ? TextReport.agentWork(r.agentWork()) : "");
        o.put("warmup", r.warmup() ? TextReport.warmup(r) : "");
        TextReport.unexplained(r).forEach(o.putArray("unexplained")::add);
        // Lanes: one per thread, in the order the request reached them. The thread a server handed the
        // request over from (its poller) runs none of it: its lane comes first and is drawn as the
        // hand-over's origin only.
        Map<ThreadRef, ObjectNode> lanes = new LinkedHashMap<>();
        List<ThreadRef> order = new ArrayList<>();
        Set<ThreadRef> working = new HashSet<>();
        r.threads().forEach(t -> working.add(t.thread()));
        r.segments().forEach(seg -> working.add(seg.thread()));
        r.waits().list().forEach(w -> working.add(w.thread()));
        Set<ThreadRef> origins = new HashSet<>();
        for (Hop h : r.hops().list()) {
            if (h.serverQueue() && h.from() != ThreadRef.UNKNOWN && !working.contains(h.from())) {
                order.add(h.from());
                origins.add(h.from());
            }
        }
        order.add(r.startThread());
        r.threads().stream().map(ThreadTime::thread).forEach(order::add);
        ArrayNode laneNodes = o.putArray("lanes");
        for (ThreadRef t : order) {
            if (t != null && !lanes.containsKey(t)) {
                ObjectNode lane = laneNodes.addObject().put("thread", t.label());
                lane.putArray("segments");
                lane.putArray("waits");
                if (origins.contains(t)) {
                    lane.put("origin", true);
                }
                lanes.put(t, lane);
            }
        }
        long t0 = r.startEpochNanos();
        for (Segment s : r.segments()) {
            ((ArrayNode) lane(lanes, laneNodes, s.thread()).get("segments")).addObject()
                    .put("s", s.startEpochNanos() - t0).put("e", s.endEpochNanos() - t0).put("kind", s.kind())
                    .put("text", s.kind() + " " + Units.nanos(s.durationNanos()) + ", "
                            + (s.allocatedBytes() < 0 ? "no allocation counter" : Units.bytes(s.allocatedBytes())));
        }
        for (Wait w : r.waits().list()) {
            if (w.thread() != null) {
                ((ArrayNode) lane(lanes, laneNodes, w.thread()).get("waits")).addObject()
                        .put("s", w.startEpochNanos() - t0).put("e", w.endEpochNanos() - t0)
                        .put("text", w.kind() + " " + Units.nanos(w.durationNanos()));
            }
        }
        ArrayNode hops = o.putArray("hopList");
        List<ThreadRef> laneOrder = new ArrayList<>(lanes.keySet());
        for (Hop h : r.hops().list()) {
            ObjectNode hop = hops.addObject().put("kind", h.kind()).put("from", h.from().label()).put("to", h.to().label())
                    .put("s", h.departureEpochNanos() - t0).put("e", h.arrivalEpochNanos() - t0)
                    .put("delay", Units.nanos(h.delayNanos())).put("via", h.via()).put("serverQueue", h.serverQueue());
            if (h.from() != ThreadRef.UNKNOWN && h.to() != ThreadRef.UNKNOWN) {
                lane(lanes, laneNodes, h.from());
                lane(lanes, laneNodes, h.to());
                laneOrder = new ArrayList<>(lanes.keySet());
                hop.put("fromLane", laneOrder.indexOf(h.from())).put("toLane", laneOrder.indexOf(h.to()));
            }
        }
        return o;
    }

    private static ObjectNode lane(Map<ThreadRef, ObjectNode> lanes, ArrayNode laneNodes, ThreadRef t) {
        return lanes.computeIfAbsent(t, k -> {
            ObjectNode lane = laneNodes.addObject().put("thread", k.label());
            lane.putArray("segments");
            lane.putArray("waits");
            return lane;
        });
    }

    private static String template() {
        try (InputStream in = HtmlReport.class.getResourceAsStream(TEMPLATE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + TEMPLATE + " missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
