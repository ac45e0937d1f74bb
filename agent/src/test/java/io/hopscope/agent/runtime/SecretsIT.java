package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import io.hopscope.agent.testing.TwoAtATime;
import io.hopscope.testapps.SecretsApp;
import io.hopscope.testapps.SecretsPipelineApp;
import java.io.File;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedObject;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 23's secrets: URLs with SAS signatures, tokens, codes, passwords and user-info, and
 * Authorization, Proxy-Authorization, Cookie and x-ms-*-key headers, sent through OkHttp, the
 * JDK's HttpClient and azure-core pipelines (on OkHttp and on Netty) under the agent with its
 * recording settings, appear nowhere in the recording file: no event field, no thread name, no
 * stack-trace string, no span name, no constant pool entry, in any of JFR's string encodings; on
 * this JDK and on the second one (HOPSCOPE_JDK2), whose JFR writes its strings its own way.
 * Two checks, each on the whole recording: its bytes are searched for every encoding of every
 * secret, and every string of every event (fields, threads, stack frames, classes, recursively) is
 * read back with jdk.jfr.consumer and searched. Both apps run in one JVM a JDK, the clients
 * first; each test checks its app's requests in that recording, and the whole recording.
 */
class SecretsIT {

    private static final String PIPELINE = "com.azure.core.http.HttpPipeline#";
    /**
     * One run a JDK, queued when the class starts, for both tests: SecretsApp's clients, then
     * SecretsPipelineApp's pipelines, in one JVM (a JVM start with the agent costs far more than the
     * requests); none measures time, so the JDKs' runs go two at a time.
     */
    private static final TwoAtATime<String, AgentRun> RUNS = new TwoAtATime<>();

    @BeforeAll
    static void startTheRuns() {
        SamplesJar.need("com/azure/core/http/netty/NettyAsyncHttpClientBuilder.class");
        String classPath = System.getProperty("hopscope.test.classes") + File.pathSeparator + SamplesJar.path();
        Handovers.jvms().forEach(java -> RUNS.start(java, () -> AgentRun.run(java,
                "jfr=%JFR%,spanthreshold=0,okhttp-internal=true",
                List.of("-cp", classPath, SecretsPipelineApp.class.getName(), "clients"))));
    }

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void noPlantedSecretIsAnywhereInARecordingOfOkHttpAndTheJdkClient(String java) throws Exception {
        AgentRun run = RUNS.get(java);
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stdout).containsPattern("(?m)^ok 4$");
        Map<Long, Requests.Request> requests = Requests.byId(run.events());
        // The requests are there, with the query parameter the allow-list keeps: the searches below
        // search a recording that holds them.
        assertThat(Requests.outbound(requests).values()).filteredOn(r -> r.request != null)
                .filteredOn(r -> !r.request.getString("boundary").startsWith(PIPELINE))
                .extracting(r -> r.request.getString("url"))
                .hasSize(4)
                .allSatisfy(url -> assertThat(url).endsWith("/container/blob?comp=list"));
        // So are the server's requests of them (the JDK's server, in process), named by path.
        assertThat(Requests.inbound(requests).values())
                .filteredOn(r -> r.request.getString("name").equals("GET /container/blob"))
                .extracting(r -> r.request.getString("url"))
                .hasSizeGreaterThanOrEqualTo(4)
                .allSatisfy(url -> assertThat(url).isEqualTo("/container/blob?comp=list"));
        assertNoSecretIn(run.recording, Arrays.asList(SecretsApp.SECRETS));
    }

    /**
     * The pipelines put the secrets in with azure-core's own policies and one of the application's;
     * some requests fail with an exception whose message holds the URL and the Authorization
     * header, some with connection refused; some park the caller long enough for the recording
     * settings' stack-traced ThreadPark event.
     */
    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void noPlantedSecretIsAnywhereInARecordingOfAzureCorePipelines(String java) throws Exception {
        AgentRun run = RUNS.get(java);
        assertThat(run.exitCode).as(run.stderr).isZero();
        // 2 clients x 2 ways: 2 served, a 401 and a refused connection each, and on Netty a host
        // it cannot resolve; the server saw every secret in each of the 12 requests it got.
        assertThat(run.stdout).as(run.stderr).contains("ok 8 failed 10 carried 12");
        List<RecordedEvent> events = run.events();
        List<RecordedEvent> pipelineRequests = events.stream()
                .filter(e -> e.getEventType().getName().equals("hopscope.Request"))
                .filter(e -> e.getString("boundary").startsWith(PIPELINE))
                .toList();
        assertThat(pipelineRequests).hasSize(18).allSatisfy(r -> {
            assertThat(r.getString("url")).endsWith("?comp=list").doesNotContain("@");
            assertThat(r.getString("name")).startsWith("GET 127.0.0.1/container/");
        });
        // The server's 16 requests (the clients' 4, the pipelines' 12), each named by path, its query
        // cut to the allow-list: in the recording the searches below search.
        assertThat(events).filteredOn(e -> e.getEventType().getName().equals("hopscope.Request"))
                .filteredOn(e -> "server".equals(e.getString("kind")))
                .hasSize(16)
                .allSatisfy(r -> {
                    assertThat(r.getString("name")).matches("GET /container/(blob|denied|slow)");
                    assertThat(r.getString("url")).isEqualTo(r.getString("name").substring("GET ".length()) + "?comp=list");
                });
        assertThat(pipelineRequests).filteredOn(r -> "error".equals(r.getString("outcome")))
                .extracting(r -> r.getString("error"))
                .hasSize(10)
                .contains("com.azure.core.exception.HttpResponseException");
        assertThat(events).filteredOn(e -> e.getEventType().getName().equals("hopscope.Span"))
                .extracting(e -> e.getString("name"))
                .contains("com.azure.core.http.policy.AzureSasCredentialPolicy",
                        "com.azure.core.http.policy.AddHeadersPolicy",
                        SecretsPipelineApp.class.getName() + "$SharedKeyPolicy",
                        SecretsPipelineApp.class.getName() + "$ErrorPolicy");
        List<String> secrets = new ArrayList<>(Arrays.asList(SecretsApp.SECRETS));
        secrets.addAll(Arrays.asList(SecretsPipelineApp.PIPELINE_SECRETS));
        Map<String, List<String>> strings = assertNoSecretIn(run.recording, secrets);
        // The strings read back include what could have carried a secret: stack frames (the parked
        // callers'), thread names, span names and the kept URLs.
        assertThat(strings.keySet()).anyMatch(path -> path.startsWith("jdk.ThreadPark.stackTrace.frames"));
        assertThat(strings.get("jdk.ThreadPark.stackTrace.frames.method.name")).contains("block");
        assertThat(strings.get("hopscope.Segment.eventThread.javaName")).anyMatch(n -> n.startsWith("reactor-http-"));
        assertThat(strings.get("hopscope.Span.name")).contains("com.azure.core.http.policy.AzureSasCredentialPolicy");
    }

    /**
     * Asserts that no secret is in the recording, both ways, and gives every string read back from
     * it by where it was found ({@code jdk.ThreadPark.stackTrace.frames.method.name}).
     */
    private static Map<String, List<String>> assertNoSecretIn(Path recording, List<String> secrets) throws IOException {
        byte[] file = Files.readAllBytes(recording);
        for (String secret : secrets) {
            for (Map.Entry<String, byte[]> encoded : encodings(secret).entrySet()) {
                assertThat(indexOf(file, encoded.getValue())).as("offset of %s (%s) in the recording", secret,
                        encoded.getKey()).isEqualTo(-1);
            }
        }
        Map<String, List<String>> strings = new LinkedHashMap<>();
        try (RecordingFile events = new RecordingFile(recording)) {
            while (events.hasMoreEvents()) {
                RecordedEvent event = events.readEvent();
                collectStrings(event, event.getEventType().getName(), 0, strings);
            }
        }
        assertThat(strings).as("strings read back").isNotEmpty();
        for (Map.Entry<String, List<String>> found : strings.entrySet()) {
            for (String secret : secrets) {
                assertThat(found.getValue()).as("%s (%s)", found.getKey(), secret)
                        .noneMatch(s -> s.contains(secret));
            }
        }
        return strings;
    }

    /**
     * The bytes a secret would be in the file: JFR writes a string as UTF-8, as Latin-1 or as a
     * char array of one varint per char (the JDK's EventWriter and its reader, whose readChar is a
     * varint), all of them the ASCII bytes for ASCII; UTF-16 as well, in case a writer stored raw
     * chars; and percent-encoded UTF-8, as an HTTP client sends a value that is not ASCII.
     */
    private static Map<String, byte[]> encodings(String secret) {
        Map<String, byte[]> encoded = new LinkedHashMap<>();
        encoded.put("UTF-8", secret.getBytes(StandardCharsets.UTF_8));
        if (StandardCharsets.ISO_8859_1.newEncoder().canEncode(secret)) {
            encoded.put("Latin-1", secret.getBytes(StandardCharsets.ISO_8859_1));
        }
        ByteBuffer varints = ByteBuffer.allocate(3 * secret.length());
        for (char c : secret.toCharArray()) {
            int v = c;
            while (v >= 0x80) {
                varints.put((byte) (v & 0x7f | 0x80));
                v >>>= 7;
            }
            varints.put((byte) v);
        }
        encoded.put("varint chars", Arrays.copyOf(varints.array(), varints.position()));
        encoded.put("UTF-16BE", secret.getBytes(StandardCharsets.UTF_16BE));
        encoded.put("UTF-16LE", secret.getBytes(StandardCharsets.UTF_16LE));
        encoded.put("percent-encoded", URLEncoder.encode(secret, StandardCharsets.UTF_8).getBytes(StandardCharsets.US_ASCII));
        return encoded;
    }

    /** Every string under {@code value} (an event, a thread, a stack trace, a class...), by field path. */
    private static void collectStrings(Object value, String path, int depth, Map<String, List<String>> strings) {
        // A class's loader has a class, which has a loader: deep enough for every event's own fields.
        if (value == null || depth > 12) {
            return;
        }
        if (value instanceof String s) {
            strings.computeIfAbsent(path, k -> new ArrayList<>()).add(s);
        } else if (value instanceof RecordedStackTrace stack) {
            stack.getFrames().forEach(frame -> collectStrings(frame, path + ".frames", depth + 1, strings));
        } else if (value instanceof RecordedObject object) {
            for (ValueDescriptor field : object.getFields()) {
                collectStrings(object.getValue(field.getName()), path + "." + field.getName(), depth + 1, strings);
            }
        } else if (value instanceof Object[] array) {
            Stream.of(array).forEach(element -> collectStrings(element, path, depth + 1, strings));
        } else if (value instanceof List<?> list) {
            list.forEach(element -> collectStrings(element, path, depth + 1, strings));
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
