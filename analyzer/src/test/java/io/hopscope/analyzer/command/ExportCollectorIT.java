package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.FlightRecorderLock;
import io.hopscope.analyzer.testing.KnownPathRecording;
import io.hopscope.analyzer.testing.OtelCollector;
import io.hopscope.analyzer.testing.Paths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code hopscope export} into a real OpenTelemetry Collector (scripts/otelcol.sh), run as users run it:
 * the shaded jar in its own JVM, the endpoint's header from OTEL_EXPORTER_OTLP_HEADERS. Asserts on what
 * the collector wrote (its file exporter's OTLP JSON), and on the pprof file as {@code go tool pprof} reads it.
 */
@ResourceLock(FlightRecorderLock.NAME)
class ExportCollectorIT {

    private static final String SECRET = "Basic c2VjcmV0LWZvci10aGUtdGVzdA==";

    @TempDir
    static Path dir;
    static Path recording;
    static OtelCollector collector;

    @BeforeAll
    static void start() throws Exception {
        collector = OtelCollector.start(dir);
        recording = dir.resolve("known-path.jfr");
        KnownPathRecording.write(recording, 3, 30);
    }

    @AfterAll
    static void stop() throws Exception {
        if (collector != null) {
            collector.close();
        }
    }

    @Test
    void collectorReceivesTheHopsAndStacksWithTheirAttributes() throws Exception {
        Run r = hopscope(Map.of("OTEL_EXPORTER_OTLP_HEADERS", "Authorization=" + SECRET.replace("=", "%3D")),
                "export", recording.toString(), "--format", "otlp", "--otlp", collector.otlpUrl(),
                "--service-name", "known-path");
        assertThat(r.code).as(r.err).isZero();
        assertThat(r.err).contains("exported samples (").doesNotContain("c2VjcmV0");

        List<String> lines = collector.received("profiles", 1);
        assertThat(lines).as(collector.log()).hasSize(1);
        JsonNode export = new ObjectMapper().readTree(lines.get(0));
        JsonNode d = export.path("dictionary");
        List<String> strings = new java.util.ArrayList<>();
        d.path("stringTable").forEach(s -> strings.add(s.asText()));
        JsonNode resource = export.path("resourceProfiles").get(0);
        JsonNode service = resource.path("resource").path("attributes").get(0);
        assertThat(key(service, strings) + "=" + text(service.path("value"), strings)).isEqualTo("service.name=known-path");

        Map<String, JsonNode> byType = new HashMap<>();
        resource.path("scopeProfiles").get(0).path("profiles").forEach(p -> byType.put(
                strings.get(p.path("sampleType").path("typeStrindex").asInt()) + "/"
                        + strings.get(p.path("sampleType").path("unitStrindex").asInt()), p));
        assertThat(byType).containsKeys("queue_delay/nanoseconds", "wake_latency/nanoseconds", "lock/nanoseconds",
                "park/nanoseconds", "alloc_space/bytes");

        Set<String> hopAttributes = new HashSet<>();
        for (String type : List.of("queue_delay/nanoseconds", "wake_latency/nanoseconds")) {
            for (JsonNode sample : byType.get(type).path("samples")) {
                assertThat(sample.path("values").get(0).asLong()).isPositive();
                sample.path("attributeIndices").forEach(i -> {
                    JsonNode a = d.path("attributeTable").get(i.asInt());
                    hopAttributes.add(key(a, strings) + "=" + text(a.path("value"), strings));
                });
            }
        }
        assertThat(hopAttributes).contains("hopscope.request.name=" + KnownPathRecording.NAME, "hopscope.hop.kind=handoff",
                "hopscope.hop.kind=wake", "hopscope.hop.via=java.util.concurrent.ThreadPoolExecutor",
                "thread.pool=known-path-B");

        // The lock samples' stacks reach the collector leaf first: the contended monitor's class on top.
        JsonNode lockSample = byType.get("lock/nanoseconds").path("samples").get(0);
        int leaf = d.path("stackTable").get(lockSample.path("stackIndex").asInt()).path("locationIndices").get(0).asInt();
        int function = d.path("locationTable").get(leaf).path("lines").get(0).path("functionIndex").asInt();
        assertThat(strings.get(d.path("functionTable").get(function).path("nameStrindex").asInt()))
                .isEqualTo(KnownPathRecording.KnownLock.class.getName());
    }

    @Test
    void wrongPathIsTheCollectorsRefusalInOneLine() throws Exception {
        Run r = hopscope(Map.of("OTEL_EXPORTER_OTLP_HEADERS", "Authorization=" + SECRET.replace("=", "%3D")),
                "export", recording.toString(), "--format", "otlp", "--otlp", collector.otlpUrl() + "/v1/nothing");
        assertThat(r.code).isEqualTo(2);
        assertThat(r.err.strip().lines()).hasSize(1);
        assertThat(r.err).startsWith("hopscope: " + collector.otlpUrl() + "/v1/nothing: refused with HTTP 404")
                .doesNotContain("c2VjcmV0");
    }

    @Test
    void goToolPprofReadsTheSampleTypesAndLabels() throws Exception {
        Path file = dir.resolve("known.pb.gz");
        Run r = hopscope(Map.of(), "export", recording.toString(), "--format", "pprof", "-o", file.toString());
        assertThat(r.code).as(r.err).isZero();
        // go is there: the collector was built with it.
        Process p = new ProcessBuilder("go", "tool", "pprof", "-raw", file.toString()).redirectErrorStream(true).start();
        String raw = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(raw).isZero();
        assertThat(raw).contains("queue_delay/nanoseconds", "wake_latency/nanoseconds", "lock/nanoseconds",
                "park/nanoseconds", "alloc_space/bytes");
        assertThat(raw).contains("request_name:[" + KnownPathRecording.NAME + "]", "hop_kind:[handoff]", "hop_kind:[wake]",
                "thread_pool:[known-path-B]");
        assertThat(raw).contains(KnownPathRecording.KnownLock.class.getName());
    }

    // The collector's JSON may put any string in the dictionary's table: a key or a value is then its index.
    private static String key(JsonNode keyValue, List<String> strings) {
        return keyValue.has("key") ? keyValue.path("key").asText() : strings.get(keyValue.path("keyStrindex").asInt());
    }

    private static String text(JsonNode anyValue, List<String> strings) {
        return anyValue.has("stringValue") ? anyValue.path("stringValue").asText()
                : strings.get(anyValue.path("stringValueStrindex").asInt());
    }

    private record Run(int code, String out, String err) {
    }

    private static Run hopscope(Map<String, String> env, String... args) throws Exception {
        Path jar = Paths.cliJar();
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().remove("OTEL_EXPORTER_OTLP_HEADERS");
        pb.environment().remove("OTEL_EXPORTER_OTLP_PROFILES_HEADERS");
        pb.environment().putAll(env);
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
