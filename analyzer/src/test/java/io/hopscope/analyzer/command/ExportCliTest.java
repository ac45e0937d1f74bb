package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.hopscope.analyzer.export.pprof.Profile;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.ContractEvents;
import io.hopscope.analyzer.testing.KnownPathFile;
import io.hopscope.analyzer.testing.KnownPathRecording;
import io.hopscope.analyzer.testing.TracedRequests;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hopscope export}: misuse first, then what the OTLP and pprof files of a real known-path
 * recording hold (read back with the same published bindings), then endpoints that refuse.
 */
class ExportCliTest {

    private static final String SECRET = "Bearer s3cr3t-t0ken-for-the-test";

    @RegisterExtension
    static final KnownPathFile recording = new KnownPathFile(3);

    @TempDir
    static Path dir;

    @Test
    void formatAndTargetAreRequired() {
        Cli r = Cli.run("export", recording.file().toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required").contains("Usage: hopscope export");
    }

    @Test
    void targetsExcludeEachOther() {
        Cli r = Cli.run("export", recording.file().toString(), "--format", "otlp", "-o", "x.pb", "--otlp", "http://127.0.0.1:1");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("mutually exclusive");
    }

    @Test
    void pushIsForPprofAndOtlpForOtlp() {
        Cli push = Cli.run("export", recording.file().toString(), "--format", "otlp", "--push", "http://127.0.0.1:1");
        assertThat(push.exitCode()).isEqualTo(2);
        assertThat(push.err()).startsWith("--push is for --format pprof");
        Cli otlp = Cli.run("export", recording.file().toString(), "--format", "pprof", "--otlp", "http://127.0.0.1:1");
        assertThat(otlp.exitCode()).isEqualTo(2);
        assertThat(otlp.err()).startsWith("--otlp is for --format otlp");
    }

    @Test
    void endpointMustBeHttp() {
        Cli r = Cli.run("export", recording.file().toString(), "--format", "otlp", "--otlp", "ftp://127.0.0.1/x");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("--otlp must be an http:// or https:// URL");
    }

    @Test
    void headersFileWithoutEndpointIsRefused() {
        Cli r = Cli.run("export", recording.file().toString(), "--format", "otlp", "-o", dir.resolve("h.pb").toString(),
                "--headers-file", "h.txt");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("--headers-file is for --otlp or --push");
    }

    @Test
    void missingRecordingIsOneLine() {
        Cli r = Cli.run("export", dir.resolve("none.jfr").toString(), "--format", "otlp", "-o", dir.resolve("n.pb").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("hopscope: ").contains("none.jfr").doesNotContain("\tat ");
        assertThat(r.err().strip().lines()).hasSize(1);
    }

    @Test
    void otlpFileHasEveryTypeWithBoundedAttributes() throws Exception {
        Path file = dir.resolve("known.otlp.pb");
        Cli r = Cli.run("export", recording.file().toString(), "--format", "otlp", "-o", file.toString(),
                "--service-name", "known-path");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("exported samples (").contains(file.toString());

        ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file));
        ProfilesDictionary d = request.getDictionary();
        assertThat(request.getResourceProfiles(0).getResource().getAttributes(0).getValue().getStringValue())
                .isEqualTo("known-path");
        Map<String, io.opentelemetry.proto.profiles.v1development.Profile> byType = new HashMap<>();
        for (var p : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
            byType.put(d.getStringTable(p.getSampleType().getTypeStrindex()) + "/"
                    + d.getStringTable(p.getSampleType().getUnitStrindex()), p);
        }
        // The known path: two handoffs, one wake, a contended monitor, a park, allocations.
        assertThat(byType).containsKeys("queue_delay/nanoseconds", "wake_latency/nanoseconds", "lock/nanoseconds",
                "park/nanoseconds", "alloc_space/bytes");

        var queue = byType.get("queue_delay/nanoseconds");
        Set<String> queueAttributes = new HashSet<>();
        for (Sample s : queue.getSamplesList()) {
            queueAttributes.addAll(attributes(d, s));
        }
        assertThat(queueAttributes).contains("hopscope.request.name=" + KnownPathRecording.NAME,
                "hopscope.hop.kind=handoff", "hopscope.hop.via=java.util.concurrent.ThreadPoolExecutor",
                "thread.pool=known-path-A", "thread.pool=known-path-B");
        assertThat(attributes(d, byType.get("wake_latency/nanoseconds").getSamples(0))).contains("hopscope.hop.kind=wake");

        // Each request counted once, its stack its name: the three known-path requests.
        var requests = byType.get("requests/count");
        assertThat(requests.getSamplesList().stream().mapToLong(s -> s.getValues(0)).sum()).isEqualTo(3);
        assertThat(requests.getSamplesList()).allSatisfy(s -> {
            assertThat(frames(d, s)).containsExactly(KnownPathRecording.NAME);
            assertThat(attributes(d, s)).contains("hopscope.request.name=" + KnownPathRecording.NAME);
        });
        assertThat(r.err()).contains("of 3 requests");

        // The contended monitor's class is the lock samples' leaf, under a frame of the known path's code.
        var lock = byType.get("lock/nanoseconds");
        List<String> leafFirst = frames(d, lock.getSamples(0));
        assertThat(leafFirst.get(0)).isEqualTo(KnownPathRecording.KnownLock.class.getName());
        assertThat(attributes(d, lock.getSamples(0))).contains("thread.pool=known-path-B");
        assertThat(frames(d, byType.get("park/nanoseconds").getSamples(0)).get(0))
                .isEqualTo(KnownPathRecording.KnownParkBlocker.class.getName());

        // Bounded cardinality: no attribute key names an id, and every value is one of few.
        Set<String> keys = new HashSet<>();
        for (KeyValueAndUnit a : d.getAttributeTableList().subList(1, d.getAttributeTableCount())) {
            keys.add(d.getStringTable(a.getKeyStrindex()));
        }
        assertThat(keys).containsOnly("hopscope.request.name", "thread.pool", "hopscope.hop.kind", "hopscope.hop.via");
        assertThat(d.getAttributeTableCount()).isLessThan(20);
        // Entry 0 of each table is its zero value, as the protocol asks.
        assertThat(d.getStringTable(0)).isEmpty();
        assertThat(d.getStackTable(0).getLocationIndicesCount()).isZero();
        assertThat(d.getLinkTable(0).getTraceId().isEmpty()).isTrue();
    }

    @Test
    void samplesOfARequestMadeInATraceLinkToItsSpan() throws Exception {
        Path traced = dir.resolve("traced.jfr");
        try (Recording r = new Recording()) {
            for (Class<? extends jdk.jfr.Event> type : List.of(ContractEvents.Request.class, ContractEvents.Segment.class,
                    ContractEvents.Hop.class)) {
                r.enable(type).withoutThreshold();
            }
            r.start();
            tracedRequest(1, TracedRequests.TRACE, TracedRequests.SPAN_1);
            tracedRequest(2, null, null);
            r.stop();
            r.dump(traced);
        }
        Path otlp = dir.resolve("traced.otlp.pb");
        Cli r = Cli.run("export", traced.toString(), "--format", "otlp", "-o", otlp.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(otlp));
        ProfilesDictionary d = request.getDictionary();
        var queue = request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList().stream()
                .filter(p -> d.getStringTable(p.getSampleType().getTypeStrindex()).equals("queue_delay")).findFirst()
                .orElseThrow();
        // The same stack and attributes, one request in a trace and one not: two samples, one linked.
        assertThat(queue.getSamplesList()).hasSize(2);
        List<String> links = new java.util.ArrayList<>();
        for (Sample s : queue.getSamplesList()) {
            var link = d.getLinkTable(s.getLinkIndex());
            links.add(s.getLinkIndex() == 0 ? "none" : hex(link.getTraceId().toByteArray()) + "/"
                    + hex(link.getSpanId().toByteArray()));
        }
        assertThat(links).containsExactlyInAnyOrder("none", TracedRequests.TRACE + "/" + TracedRequests.SPAN_1);

        Path pprof = dir.resolve("traced.pb.gz");
        r = Cli.run("export", traced.toString(), "--format", "pprof", "-o", pprof.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        Profile p;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(pprof))) {
            p = Profile.parseFrom(in);
        }
        // Per type: the queue delay of each request, and each request counted, one of the two linked.
        List<String> types = p.getSampleTypeList().stream().map(t -> p.getStringTable((int) t.getType())).toList();
        for (String type : List.of("queue_delay", "requests")) {
            int column = types.indexOf(type);
            List<String> spanLabels = new java.util.ArrayList<>();
            List<io.hopscope.analyzer.export.pprof.Sample> ofType = new java.util.ArrayList<>();
            p.getSampleList().stream().filter(s -> s.getValue(column) != 0).forEach(s -> {
                ofType.add(s);
                s.getLabelList().forEach(l -> {
                    String key = p.getStringTable((int) l.getKey());
                    assertThat(key).isNotEqualTo("trace_id"); // a series per trace in Pyroscope
                    if (key.equals("span_id")) {
                        spanLabels.add(p.getStringTable((int) l.getStr()));
                    }
                });
            });
            assertThat(ofType).as(type).hasSize(2);
            assertThat(spanLabels).as(type).containsExactly(TracedRequests.SPAN_1);
        }
        assertThat(p.getSampleList()).hasSize(4);
    }

    /** A request with one handoff of 5 us from this thread to another, made in the trace given (null: none). */
    private static void tracedRequest(long id, String traceId, String spanId) throws InterruptedException {
        Thread caller = Thread.currentThread();
        TracedRequests.request(id, traceId, spanId, 64, () -> {
            Thread worker = new Thread(() -> {
                ContractEvents.Hop hop = new ContractEvents.Hop();
                hop.requestId = id;
                hop.kind = "handoff";
                hop.fromThread = caller;
                hop.toThread = Thread.currentThread();
                hop.delayNanos = 5_000;
                hop.via = "java.util.concurrent.ThreadPoolExecutor";
                hop.commit();
                ContractEvents.instantSegment(id, "task", 64);
            }, "traced-worker-1");
            worker.start();
            worker.join();
        });
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) {
            s.append(String.format("%02x", b));
        }
        return s.toString();
    }

    @Test
    void pprofFileHasTheSameTypesAndLabels() throws Exception {
        Path file = dir.resolve("known.pb.gz");
        Cli r = Cli.run("export", recording.file().toString(), "--format", "pprof", "-o", file.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        Profile p;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            p = Profile.parseFrom(in);
        }
        List<String> types = p.getSampleTypeList().stream()
                .map(t -> p.getStringTable((int) t.getType()) + "/" + p.getStringTable((int) t.getUnit())).toList();
        assertThat(types).contains("queue_delay/nanoseconds", "wake_latency/nanoseconds", "lock/nanoseconds",
                "park/nanoseconds", "alloc_space/bytes");
        Set<String> labels = new HashSet<>();
        p.getSampleList().forEach(s -> {
            assertThat(s.getValueCount()).isEqualTo(types.size());
            s.getLabelList().forEach(l -> labels.add(p.getStringTable((int) l.getKey()) + "=" + p.getStringTable((int) l.getStr())));
        });
        assertThat(labels).contains("request_name=" + KnownPathRecording.NAME, "hop_kind=handoff", "hop_kind=wake",
                "thread_pool=known-path-B");
        assertThat(labels).noneMatch(l -> l.startsWith("request_id") || l.startsWith("id="));
    }

    @Test
    void refusedConnectionIsOneLineAndNonZero() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Cli r = Cli.run("export", recording.file().toString(), "--format", "otlp", "--otlp", "http://127.0.0.1:" + port);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("hopscope: http://127.0.0.1:" + port + "/v1development/profiles: cannot connect")
                .doesNotContain("exported").doesNotContain("\tat ");
    }

    @Test
    void refusalQuotingTheSecretNeverShowsIt() throws Exception {
        // A server that answers 401 and echoes the Authorization header back: the line must not repeat it.
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = ("denied for " + exchange.getRequestHeaders().getFirst("Authorization"))
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            Path headers = dir.resolve("headers.txt");
            Files.writeString(headers, "Authorization=" + SECRET.replace(" ", "%20") + "\nX-Scope-OrgID=tenant-1\n");
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            Cli r = Cli.run("export", recording.file().toString(), "--format", "pprof", "--push", url, "--headers-file",
                    headers.toString());
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("refused with HTTP 401: denied for ***").doesNotContain("s3cr3t")
                    .doesNotContain("exported");
            assertThat(r.out()).isEmpty();
        } finally {
            server.stop(0);
        }
    }

    @Test
    void badHeadersFileNamesThePositionNotTheText() throws Exception {
        Path headers = dir.resolve("bad-headers.txt");
        Files.writeString(headers, "X-Scope-OrgID=tenant-1\n" + SECRET + "\n");
        Cli r = Cli.run("export", recording.file().toString(), "--format", "otlp", "--otlp", "http://127.0.0.1:1",
                "--headers-file", headers.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("header 2 is not key=value").doesNotContain("s3cr3t");
    }

    static List<String> attributes(ProfilesDictionary d, Sample s) {
        return s.getAttributeIndicesList().stream().map(i -> d.getAttributeTable(i)).map(a ->
                d.getStringTable(a.getKeyStrindex()) + "=" + a.getValue().getStringValue()).toList();
    }

    static List<String> frames(ProfilesDictionary d, Sample s) {
        return d.getStackTable(s.getStackIndex()).getLocationIndicesList().stream()
                .map(i -> d.getStringTable(d.getFunctionTable(d.getLocationTable(i).getLines(0).getFunctionIndex())
                        .getNameStrindex())).toList();
    }
}
