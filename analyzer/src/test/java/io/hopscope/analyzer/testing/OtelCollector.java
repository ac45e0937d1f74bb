package io.hopscope.analyzer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenTelemetry Collector on 127.0.0.1, built from its Go modules by scripts/otelcol.sh (cached
 * under ~/.cache/hopscope): the OTLP/HTTP receiver, everything it receives written as OTLP JSON lines
 * by the file exporter (one file per signal) and logged by the debug exporter, the metrics also served
 * by the Prometheus exporter for scraping, profiles enabled with
 * {@code --feature-gates=+service.profilesSupport}. Skipped where Go is absent, except under CI=true.
 */
public final class OtelCollector implements AutoCloseable {

    private Process process;
    /** Its ports while it is stopped: bound, never listening, so they refuse connections and no other process takes them. */
    private final List<Socket> held = new java.util.ArrayList<>();
    private final Path binary;
    private final Path config;
    private final Path dir;
    private final int port;
    private final int prometheusPort;

    private OtelCollector(Path binary, Path config, Path dir, int port, int prometheusPort) {
        this.binary = binary;
        this.config = config;
        this.dir = dir;
        this.port = port;
        this.prometheusPort = prometheusPort;
    }

    /** Builds the collector if needed (minutes the first time) and starts it with its files in {@code dir}. */
    public static OtelCollector start(Path dir) throws Exception {
        return start(dir, null);
    }

    /**
     * The same, its receiver taking only requests with {@code Authorization: Bearer TOKEN} (the bearer token
     * authenticator; 401 otherwise), as a fleet's Collector does; {@code token} null takes every request.
     */
    public static OtelCollector start(Path dir, String token) throws Exception {
        Path binary = build(dir);
        int port = freePort();
        int prometheusPort = freePort();
        Path config = dir.resolve("otelcol.yaml");
        String auth = token == null ? "" : "        auth:\n          authenticator: bearertokenauth\n";
        String extensions = token == null ? "" : """
                extensions:
                  bearertokenauth:
                    token: "%s"
                """.formatted(token);
        // append: a collector restarted on the same files (LiveOutageIT) keeps what the first one wrote.
        Files.writeString(config, extensions + """
                receivers:
                  otlp:
                    protocols:
                      http:
                        endpoint: 127.0.0.1:%d
                %sexporters:
                  debug:
                    verbosity: basic
                  file/profiles:
                    path: %s
                    append: true
                  file/metrics:
                    path: %s
                    append: true
                  file/traces:
                    path: %s
                    append: true
                  prometheus:
                    endpoint: 127.0.0.1:%d
                service:
                  %stelemetry:
                    metrics:
                      level: none
                  pipelines:
                    profiles:
                      receivers: [otlp]
                      exporters: [file/profiles, debug]
                    metrics:
                      receivers: [otlp]
                      exporters: [file/metrics, prometheus, debug]
                    traces:
                      receivers: [otlp]
                      exporters: [file/traces]
                """.formatted(port, auth, dir.resolve("profiles.jsonl"), dir.resolve("metrics.jsonl"),
                dir.resolve("traces.jsonl"), prometheusPort, token == null ? "" : "extensions: [bearertokenauth]\n  "));
        OtelCollector collector = new OtelCollector(binary, config, dir, port, prometheusPort);
        collector.launch();
        return collector;
    }

    // Starts the process and waits until its receiver's and its Prometheus endpoint's ports accept a
    // connection; a collector that exits says why in its log.
    private void launch() throws Exception {
        process = new ProcessBuilder(binary.toString(), "--config=" + config, "--feature-gates=+service.profilesSupport")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("otelcol.log").toFile()))
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
                 Socket t = new Socket(InetAddress.getLoopbackAddress(), prometheusPort)) {
                return;
            } catch (IOException notYet) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    close();
                    throw new AssertionError("the collector did not start: " + log());
                }
                Thread.sleep(100);
            }
        }
    }

    /**
     * Stops the collector, as a rollout or an OOM kill would: its port refuses connections until {@link #restart}.
     * Both ports stay reserved meanwhile (a socket bound to each, never listening: a connection is refused as by
     * a closed port), so that a test running beside this one cannot be given them by the OS and take them.
     */
    public void stop() throws Exception {
        close();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int p : new int[] {port, prometheusPort}) {
            while (true) {
                Socket holder = new Socket();
                try {
                    // Its accepted connections may linger in TIME_WAIT on the port: bind beside them.
                    holder.setReuseAddress(true);
                    holder.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), p));
                    held.add(holder);
                    break;
                } catch (IOException notFreeYet) {
                    holder.close();
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("port " + p + " of the stopped collector is not free: " + notFreeYet);
                    }
                    Thread.sleep(100);
                }
            }
        }
    }

    /** Starts it again on the same ports, writing on to the same files. */
    public void restart() throws Exception {
        release();
        launch();
    }

    private void release() throws IOException {
        for (Socket s : held) {
            s.close();
        }
        held.clear();
    }

    // A port the OS had free a moment ago, for the collector to bind.
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static Path build(Path dir) throws Exception {
        Path script = Paths.moduleDir().resolve("../scripts/otelcol.sh").normalize();
        Process p = new ProcessBuilder("bash", script.toString()).redirectError(dir.resolve("otelcol-build.err").toFile())
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int code = p.waitFor();
        String err = Files.readString(dir.resolve("otelcol-build.err"));
        if (code == 3) {
            CiSkip.now("no Go to build the OpenTelemetry Collector (" + err.strip() + ")");
        }
        assertThat(code).as("scripts/otelcol.sh failed: " + err).isZero();
        return Path.of(out);
    }

    public String otlpUrl() {
        return "http://127.0.0.1:" + port;
    }

    /**
     * What the Prometheus exporter serves now, in Prometheus' text format: one {@link PrometheusSample}
     * a line that is not a comment.
     */
    public List<PrometheusSample> scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + prometheusPort + "/metrics")).header("Accept", "text/plain").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body().lines().filter(l -> !l.isBlank() && !l.startsWith("#")).map(PrometheusSample::parse).toList();
    }

    /**
     * The JSON lines the file exporter wrote for {@code signal} ({@code profiles}, {@code metrics}, {@code traces}),
     * waiting until there are at least {@code lines} of them: the exporter writes after the receiver
     * has answered.
     */
    public List<String> received(String signal, int lines) throws Exception {
        Path file = dir.resolve(signal + ".jsonl");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            // Whole lines only: the exporter may be halfway through writing the next one.
            String text = Files.exists(file) ? Files.readString(file) : "";
            List<String> got = text.substring(0, text.lastIndexOf('\n') + 1).lines().filter(l -> !l.isBlank()).toList();
            if (got.size() >= lines || System.nanoTime() > deadline) {
                return got;
            }
            Thread.sleep(100);
        }
    }

    public String log() throws IOException {
        Path log = dir.resolve("otelcol.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Override
    public void close() throws InterruptedException {
        try {
            release();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
