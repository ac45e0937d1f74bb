package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.analysis.memory.RequestCodec;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.Hops;
import io.hopscope.analyzer.model.LateEvents;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.ServerQueue;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.model.Waits;
import io.hopscope.analyzer.output.JsonReport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.StringWriter;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A field added to {@link Request} or to one of its parts ({@link Hops}, {@link Waits}...) must be
 * produced by {@link RequestInProgress}, carried by the spill's {@link RequestCodec} and written by the
 * JSON output; each test goes over every record component by reflection, the parts' too, so it fails
 * for a new field that one of them forgot.
 */
class RequestFieldsTest {

    private static final ThreadRef CALLER = new ThreadRef(1, 101, "caller");
    private static final ThreadRef LOOP = new ThreadRef(2, 102, "loop");
    private static final ThreadRef VIRTUAL = new ThreadRef(3, 0, "", true);
    private static final ThreadRef POLLER = new ThreadRef(4, 104, "http-nio-8080-Poller");

    /** Components the JSON output leaves out on purpose, with why; none so far. */
    private static final Set<String> NOT_IN_JSON = Set.of();

    /**
     * Components whose JSON field keeps an older name: the JSON's field names are stable within a
     * {@code formatVersion} (docs/json.md), the model's may say more. A part's component is named
     * {@code Part.component}: the JSON writes most parts' fields flat, in the request's object.
     */
    private static final Map<String, String> JSON_NAME = Map.ofEntries(
            Map.entry("Hops.count", "hops"), Map.entry("Hops.handoffs", "handoffHops"),
            Map.entry("Hops.wakes", "wakeHops"), Map.entry("Hops.returns", "returnHops"), Map.entry("Hops.list", "hopList"),
            Map.entry("ServerQueue.hops", "serverQueueHops"), Map.entry("ServerQueue.nanos", "serverQueueNanos"),
            Map.entry("Waits.onNonBlockingThread", "blockedOnNonBlockingThread"), Map.entry("Waits.list", "waits"),
            Map.entry("Spans.list", "spans"), Map.entry("Allocation.bytes", "allocatedBytes"),
            Map.entry("Allocation.estimatedBytes", "estimatedAllocatedBytes"), Map.entry("Allocation.sites", "allocationSites"),
            Map.entry("GcTime.nanos", "gcNanos"), Map.entry("GcTime.pauses", "gcPauses"));

    @Test
    void theRequestInProgressSetsEveryField() throws Exception {
        Request r = everyFieldSet();
        for (RecordComponent c : Request.class.getRecordComponents()) {
            Object value = c.getAccessor().invoke(r);
            if (isPart(c)) {
                for (RecordComponent p : c.getType().getRecordComponents()) {
                    Object v = p.getAccessor().invoke(value);
                    assertThat(isDefault(v)).as("Request.%s.%s left at %s by RequestInProgress.toRequest (or not fed here)",
                            c.getName(), p.getName(), v).isFalse();
                }
            } else {
                assertThat(isDefault(value)).as("Request.%s left at %s by RequestInProgress.toRequest (or not fed here)",
                        c.getName(), value).isFalse();
            }
        }
    }

    @Test
    void theSpillCodecCarriesEveryField() throws Exception {
        Request r = everyFieldSet();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RequestCodec.write(new DataOutputStream(bytes), r);
        Request back = RequestCodec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        for (RecordComponent c : Request.class.getRecordComponents()) {
            assertThat(c.getAccessor().invoke(back)).as("Request.%s through RequestCodec", c.getName())
                    .isEqualTo(c.getAccessor().invoke(r));
        }
        assertThat(back).isEqualTo(r);
    }

    @Test
    void theJsonOutputWritesEveryField() throws Exception {
        RecordingInfo info = new RecordingInfo("a.jfr", 1, 2, true, 1, 0, null, null, 0, 0, 0, 0, -1, 0, 0, 0, 0,
                LateEvents.NONE, List.of());
        StringWriter out = new StringWriter();
        JsonReport.write(new Report(info, List.of(), List.of(everyFieldSet())), out);
        JsonNode request = new ObjectMapper().readTree(out.toString()).get("requests").get(0);
        for (RecordComponent c : Request.class.getRecordComponents()) {
            if (NOT_IN_JSON.contains(c.getName())) {
                continue;
            }
            if (!isPart(c)) {
                assertThat(names(request)).as("JSON field for Request.%s", c.getName()).contains(c.getName());
                continue;
            }
            // A part is its own object when the JSON has one of its name, else its fields are the request's.
            JsonNode part = request.get(c.getName());
            JsonNode holder = part != null && part.isObject() ? part : request;
            for (RecordComponent p : c.getType().getRecordComponents()) {
                String key = c.getType().getSimpleName() + "." + p.getName();
                assertThat(names(holder)).as("JSON field for Request.%s.%s", c.getName(), p.getName())
                        .contains(holder == request ? JSON_NAME.getOrDefault(key, p.getName()) : p.getName());
            }
        }
    }

    // A part of the request: a record of the model with a NONE of its own (LockContention, Hops...).
    private static boolean isPart(RecordComponent c) {
        try {
            return c.getType().isRecord() && c.getType().getField("NONE").getType() == c.getType();
        } catch (NoSuchFieldException e) {
            return false;
        }
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** A request whose every total and list the request in progress is given something for. */
    static Request everyFieldSet() {
        RequestInProgress acc = new RequestInProgress(7, true);
        acc.name = "PUT /blob";
        acc.kind = "server";
        acc.boundary = "com.azure.core.http.HttpPipeline#sendSync";
        acc.url = "http://127.0.0.1/blob";
        acc.outcome = "error";
        acc.error = "java.io.IOException: reset";
        acc.statusCode = 503;
        acc.traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        acc.spanId = "00f067aa0ba902b7";
        acc.startThread = CALLER;
        acc.endThread = CALLER;
        acc.startEpochNanos = 1_000;
        acc.durationNanos = 1_000;
        acc.addHop(new Hop("handoff", POLLER, CALLER, 1_000, 400, "org.apache.tomcat.util.threads.ThreadPoolExecutor", 0,
                true));
        acc.addSegment(new Segment(CALLER, "start", 1_000, 1_100, 4_096, 50));
        acc.addHop(new Hop("handoff", CALLER, LOOP, 1_200, 100, "io.netty.channel.nio.NioEventLoop"));
        acc.addSegment(new Segment(LOOP, "task", 1_200, 1_300, 128, 30));
        acc.addHop(new Hop("wake", LOOP, CALLER, 1_500, 40, null));
        acc.addWait(new Wait("Mono.block", CALLER, LOOP, 1_100, 1_500, 40, true, "value"));
        acc.addHop(new Hop("return", LOOP, CALLER, 1_600, 30, "java.util.concurrent.CompletableFuture"));
        acc.addSpan(new Span(1, 0, "policy", "RetryPolicy", "sync", 0, CALLER, 1_000, 1_900));
        acc.addLock("monitor", "java.lang.Object", 100, 100, () -> "a.B.c:1");
        acc.addAllocationSample("a.B.c:1", "byte[]", 1_024, CALLER.javaId());
        // A virtual thread: no allocation counter, so its samples are its allocation, estimated.
        acc.addSegment(new Segment(VIRTUAL, "task", 1_300, 1_400, -1, -1));
        acc.addAllocationSample("a.B.c:2", "byte[]", 2_048, VIRTUAL.javaId());
        acc.addGcPause(new GcPause(1, "G1New", 1_250, 1_260), 10);
        acc.addMounts(2, 500, 400, 900, "ForkJoinPool-1-worker-1");
        acc.addPinned(20);
        acc.addAgentWork(CALLER, 3, 1, 50, 40, 4_096);
        acc.addAllocationSample(RequestInProgress.AGENT_PACKAGE + "Transformer.transform:1", "byte[]", 512,
                CALLER.javaId());
        acc.blind().addParked(BlindSpots.PARK, LOOP.javaId(), 1_210, 1_290, 80, "java.lang.Object", null, null);
        acc.settleBlindSpots();
        return acc.toRequest(5);
    }

    private static boolean isDefault(Object v) {
        return v == null || v.equals(0L) || v.equals(0) || v.equals(-1L) || v.equals(-1) || v.equals(Boolean.FALSE)
                || v instanceof Collection<?> c && c.isEmpty() || v instanceof Map<?, ?> m && m.isEmpty()
                || v == LockContention.NONE || v == Unexplained.NONE || v == ServerQueue.NONE;
    }
}
