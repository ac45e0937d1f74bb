package io.hopscope.analyzer.command;

import static io.hopscope.analyzer.testing.ServerRequestRecording.HANDLER_QUEUE_NANOS;
import static io.hopscope.analyzer.testing.ServerRequestRecording.HANDLER_VIA;
import static io.hopscope.analyzer.testing.ServerRequestRecording.ROUTE;
import static io.hopscope.analyzer.testing.ServerRequestRecording.SERVER_QUEUE_NANOS;
import static io.hopscope.analyzer.testing.ServerRequestRecording.SERVER_VIA;
import static io.hopscope.analyzer.testing.ServerRequestRecording.WAKE_NANOS;
import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.export.pprof.Profile;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.ServerRequestRecording;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server request's hand-over in {@code export} (pprof and OTLP, in step) as the {@code server_queue}
 * sample type, apart from the application's {@code queue_delay}, and its kind as an attribute of each
 * of its samples, the JDK's joined ones too; and in the hops flame graph.
 */
class ServerRequestExportTest {

    private static final String EXEC_POOL = "http-nio-8080-exec";
    private static final String HANDLER_POOL = "orders-handler";

    @TempDir
    static Path dir;
    static Path jfr;

    @BeforeAll
    static void record() throws Exception {
        jfr = dir.resolve("server.jfr");
        // The calls park on the handler's thread inside request 1's segment: joined park samples.
        ServerRequestRecording.write(jfr, SERVER_QUEUE_NANOS, List.of("jdk.ThreadPark"));
    }

    /** One sample as both formats are read here: its type, value, frames (root first) and attributes (pprof's labels). */
    private record Value(String type, long value, List<String> frames, Map<String, String> attributes) {
    }

    @Test
    void pprofAndOtlpHaveTheServerQueueApartAndTheRequestsKind() throws Exception {
        for (List<Value> values : List.of(pprof(), otlp())) {
            List<Value> serverQueue = values.stream().filter(v -> v.type().equals("server_queue")).toList();
            assertThat(serverQueue).singleElement().satisfies(v -> {
                assertThat(v.value()).isEqualTo(SERVER_QUEUE_NANOS);
                assertThat(v.frames()).containsExactly("server queue via " + SERVER_VIA, "to " + EXEC_POOL);
                assertThat(v.attributes()).containsEntry("request_name", ROUTE).containsEntry("request_kind", "server")
                        .containsEntry("hop_kind", "handoff").containsEntry("hop_via", SERVER_VIA)
                        .containsEntry("thread_pool", EXEC_POOL);
            });
            // The queue delay is the handler pool's only.
            List<Value> queueDelay = values.stream().filter(v -> v.type().equals("queue_delay")).toList();
            assertThat(queueDelay).singleElement().satisfies(v -> {
                assertThat(v.value()).isEqualTo(HANDLER_QUEUE_NANOS);
                assertThat(v.frames()).containsExactly("queue delay via " + HANDLER_VIA, "to " + HANDLER_POOL);
                assertThat(v.attributes()).containsEntry("request_kind", "server");
            });
            assertThat(values).filteredOn(v -> v.type().equals("wake_latency")).singleElement()
                    .satisfies(v -> assertThat(v.value()).isEqualTo(WAKE_NANOS));
            // The JDK's events joined to the server request carry its kind as well.
            List<Value> parks = values.stream().filter(v -> v.type().equals("park")).toList();
            assertThat(parks).isNotEmpty().allSatisfy(v -> assertThat(v.attributes())
                    .containsEntry("request_name", ROUTE).containsEntry("request_kind", "server")
                    .containsEntry("thread_pool", HANDLER_POOL));
        }
    }

    private static List<Value> pprof() throws Exception {
        Path file = dir.resolve("server.pb.gz");
        Cli r = Cli.run("export", jfr.toString(), "--format", "pprof", "-o", file.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("server_queue 1");
        Profile p;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            p = Profile.parseFrom(in);
        }
        List<String> types = p.getSampleTypeList().stream().map(t -> p.getStringTable((int) t.getType())).toList();
        assertThat(types.indexOf("server_queue")).isEqualTo(types.indexOf("queue_delay") + 1);
        List<Value> values = new ArrayList<>();
        for (var s : p.getSampleList()) {
            int column = 0;
            while (s.getValue(column) == 0) {
                column++;
            }
            List<String> frames = new ArrayList<>();
            for (long id : s.getLocationIdList()) {
                frames.add(0, p.getStringTable((int) p.getFunction((int) id - 1).getName()));
            }
            Map<String, String> labels = new TreeMap<>();
            s.getLabelList().forEach(l -> labels.put(p.getStringTable((int) l.getKey()), p.getStringTable((int) l.getStr())));
            values.add(new Value(types.get(column), s.getValue(column), frames, labels));
        }
        return values;
    }

    // OTLP's attribute keys turned into pprof's labels, so that both are checked by one set of assertions.
    private static final Map<String, String> LABEL = Map.of("hopscope.request.name", "request_name",
            "hopscope.request.kind", "request_kind", "thread.pool", "thread_pool", "hopscope.hop.kind", "hop_kind",
            "hopscope.hop.via", "hop_via");

    private static List<Value> otlp() throws Exception {
        Path file = dir.resolve("server.otlp.pb");
        Cli r = Cli.run("export", jfr.toString(), "--format", "otlp", "-o", file.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file));
        ProfilesDictionary d = request.getDictionary();
        List<Value> values = new ArrayList<>();
        for (var profile : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
            String type = d.getStringTable(profile.getSampleType().getTypeStrindex());
            for (Sample s : profile.getSamplesList()) {
                List<String> frames = new ArrayList<>();
                for (int location : d.getStackTable(s.getStackIndex()).getLocationIndicesList()) {
                    int function = d.getLocationTable(location).getLines(0).getFunctionIndex();
                    frames.add(0, d.getStringTable(d.getFunctionTable(function).getNameStrindex()));
                }
                Map<String, String> attributes = new TreeMap<>();
                for (int a : s.getAttributeIndicesList()) {
                    var kv = d.getAttributeTable(a);
                    attributes.put(LABEL.get(d.getStringTable(kv.getKeyStrindex())), kv.getValue().getStringValue());
                }
                values.add(new Value(type, s.getValues(0), frames, attributes));
            }
        }
        return values;
    }

    @Test
    void theHopsFlameGraphNamesTheServerQueue() {
        Cli r = Cli.run("flame", jfr.toString(), "--kind", "hops", "--format", "folded");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains(ROUTE + ";server queue to pool " + EXEC_POOL + " " + SERVER_QUEUE_NANOS + "\n")
                .contains(ROUTE + ";queue delay to pool " + HANDLER_POOL + " " + HANDLER_QUEUE_NANOS + "\n");
    }
}
