package io.hopscope.samples.serve;

import io.hopscope.samples.common.CallerThreads;
import io.hopscope.samples.common.Options;
import io.hopscope.samples.common.ResponseCheckException;
import io.hopscope.samples.common.RunFigures;
import io.hopscope.samples.server.SampleServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code serve}: seed 001's server study. This JVM is the service (Jetty 12, a blocking handler that
 * joins a pool's work and calls a backend); the open-loop load and the backend run in a child JVM
 * ({@link ServeLoad}), so that an agent on this JVM records the service's inbound requests and nothing
 * of the world outside it.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The server study: this JVM serves GET /serve on Jetty 12 with a blocking handler (it hands "
                + "a hash to a small pool and joins it, then calls a backend with the JDK's HttpClient#send); a child "
                + "JVM (no agent) runs the backend and an open-loop load: --rate requests a second, Poisson arrivals, "
                + "over at most --connections keep-alive connections, each with a traceparent of a fresh trace id, sent "
                + "when due whatever is pending.",
                "Modes: pool (each request on a thread of Jetty's pool of --threads: at the default rate requests "
                + "queue for one), async (the handler returns at once; the application's executor of --threads "
                + "completes the request later), virtual (each request on a virtual thread; JDK 21+).",
                "Prints the settings, what the client saw (latency from when each request was due), what the handler "
                + "measured (its own time), and this JVM's CPU per request.",
                "Example: java -javaagent:agent/target/hopscope-agent.jar=jfr=serve.jfr -jar samples/target/hopscope-samples.jar "
                + "serve --mode pool --rate 120 --duration 10"})
public final class ServeCommand implements Callable<Integer> {

    /** The most requests one run holds (the load keeps a slot of about 90 bytes for each). */
    static final long MAX_REQUESTS = 2_000_000;
    /** Beyond the run's own seconds: the child JVM's start, the first request, the last answers. */
    private static final long GRACE_S = 120;

    @Spec
    CommandSpec spec;

    @Option(names = "--mode", defaultValue = "pool", description = "pool, async or virtual (default ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--rate", defaultValue = "120", description = "Requests due per second, on average (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--duration", description = "Measured seconds (default 10 unless --count is given).")
    Double durationS;

    @Option(names = "--count", description = "Measured requests instead of --duration.")
    Long count;

    @Option(names = "--warmup", defaultValue = "0", description = "Seconds of load before measuring, at the same rate (default ${DEFAULT-VALUE}).")
    double warmupS;

    @Option(names = "--connections", defaultValue = "16", description = "Keep-alive connections the load may open (default ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--threads", defaultValue = "4",
            description = "Threads that run requests: Jetty's pool (pool), the application's executor (async); "
                    + "virtual runs each on a virtual thread (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--work-threads", defaultValue = "2", description = "Threads of the pool the handler hands its work to (default ${DEFAULT-VALUE}).")
    int workThreads;

    @Option(names = "--work-bytes", defaultValue = "65536", description = "Bytes the handed-over work hashes (SHA-256) per request (default ${DEFAULT-VALUE}).")
    int workBytes;

    @Option(names = "--backend-delay-ms", defaultValue = "20", description = "The backend's delay per call in ms (default ${DEFAULT-VALUE}).")
    long backendDelayMs;

    @Option(names = "--backend-bytes", defaultValue = "1024", description = "The backend's response body bytes (default ${DEFAULT-VALUE}).")
    int backendBytes;

    @Option(names = "--requests-file", paramLabel = "FILE",
            description = "Also write one line a request: trace id, phase, due/sent/answered us, handler us, status, outcome.")
    Path requestsFile;

    @Override
    public Integer call() throws Exception {
        Options.oneOf(spec, "--mode", mode, "pool", "async", "virtual");
        Options.atLeast(spec, "--rate", rate, 1);
        Options.check(spec, durationS == null || count == null, "give --duration or --count, not both");
        Options.above(spec, "--duration", durationS, 0);
        Options.above(spec, "--count", count, 0);
        Options.atLeast(spec, "--warmup", warmupS, 0);
        Options.atLeast(spec, "--connections", connections, 1);
        Options.atLeast(spec, "--threads", threads, 1);
        Options.atLeast(spec, "--work-threads", workThreads, 1);
        Options.atLeast(spec, "--work-bytes", workBytes, 0);
        Options.atLeast(spec, "--backend-delay-ms", backendDelayMs, 0);
        Options.within(spec, "--backend-bytes", backendBytes, 0, SampleServer.MAX_RESPONSE_BYTES);
        double measuredS = count != null ? (double) count / rate : durationS != null ? durationS : 10;
        double requests = rate * (warmupS + measuredS);
        Options.check(spec, requests <= MAX_REQUESTS, String.format(Locale.ROOT,
                "--rate x (--warmup + the measured seconds) must be at most %d requests, got %.0f", MAX_REQUESTS, requests));
        if (requestsFile != null) {
            Path dir = requestsFile.toAbsolutePath().getParent();
            Options.check(spec, dir != null && Files.isDirectory(dir) && Files.isWritable(dir),
                    "--requests-file: cannot write " + requestsFile + " (its folder is missing or not writable)");
        }
        Service.Mode serviceMode = Service.Mode.byLabel(mode);
        if (serviceMode == Service.Mode.VIRTUAL) {
            CallerThreads.checkVirtualAvailable(spec, "--mode virtual");
        }

        ThreadMXBean jvmThreads = ManagementFactory.getThreadMXBean();
        Window window = new Window();
        Map<String, String> client;
        Histogram handler;
        String handlerThreads;
        try (Service service = Service.start(serviceMode, threads, workThreads, workBytes, backendBytes, backendDelayMs);
             LoadProcess load = LoadProcess.start(loadArgs(service.uri(), measuredS))) {
            String backend = load.await(ServeLoad.BACKEND, GRACE_S);
            service.backend(URI.create(backend.substring(ServeLoad.BACKEND.length())));
            load.send(ServeLoad.GO);
            load.await(ServeLoad.MEASURING, (long) warmupS + GRACE_S);
            jvmThreads.resetPeakThreadCount();
            window.start();
            load.await(ServeLoad.MEASURED, (long) measuredS + GRACE_S);
            window.end();
            int peakThreads = jvmThreads.getPeakThreadCount();
            handler = service.handlerNanos();
            handlerThreads = service.handlerThreadKinds();
            client = load.figures(GRACE_S);
            load.awaitExit(GRACE_S);
            window.peakThreads = peakThreads;
        }

        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("scenario", "serve");
        settings.put("mode", mode);
        settings.put("rate_per_s", rate);
        settings.put("arrivals", "poisson");
        settings.put("connections", connections);
        settings.put("threads", threads);
        settings.put("work_threads", workThreads);
        settings.put("work_bytes", workBytes);
        settings.put("backend_delay_ms", backendDelayMs);
        settings.put("backend_bytes", backendBytes);
        settings.put("warmup_s", warmupS == Math.rint(warmupS) ? Long.toString((long) warmupS) : Double.toString(warmupS));
        long ok = Long.parseLong(client.getOrDefault("client_ok", "0"));
        print(settings, client, handler, handlerThreads, window, ok);
        String firstError = client.get("client_first_error");
        if (firstError != null) {
            throw new ResponseCheckException(firstError + " (" + client.getOrDefault("client_errors", "?") + " of "
                    + client.getOrDefault("client_sent", "?") + " measured requests failed)");
        }
        return 0;
    }

    private List<String> loadArgs(URI target, double measuredS) {
        List<String> args = new ArrayList<>(List.of("--target", target.toString(), "--rate", Integer.toString(rate),
                "--warmup", Double.toString(warmupS), "--connections", Integer.toString(connections),
                "--backend-delay-ms", Long.toString(backendDelayMs), "--backend-bytes", Integer.toString(backendBytes)));
        if (count != null) {
            args.addAll(List.of("--count", Long.toString(count)));
        } else {
            args.addAll(List.of("--duration", Double.toString(measuredS)));
        }
        if (requestsFile != null) {
            args.addAll(List.of("--requests-file", requestsFile.toAbsolutePath().toString()));
        }
        return args;
    }

    private static void print(Map<String, Object> settings, Map<String, String> client, Histogram handler,
                              String handlerThreads, Window w, long ok) {
        StringBuilder b = new StringBuilder();
        settings.forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
        b.append(String.format(Locale.ROOT, "measured_s: %.3f%n", (w.endNanos - w.startNanos) / 1e9));
        client.forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
        b.append("handler_requests: ").append(handler.getTotalCount()).append('\n');
        b.append(String.format(Locale.ROOT, "handler_p50_us: %.1f%n", handler.getValueAtPercentile(50) / 1e3));
        b.append(String.format(Locale.ROOT, "handler_p99_us: %.1f%n", handler.getValueAtPercentile(99) / 1e3));
        b.append("handler_threads: ").append(handlerThreads).append('\n');
        long cpu = w.endCpuNanos - w.startCpuNanos;
        boolean cpuKnown = w.startCpuNanos >= 0;
        b.append(String.format(Locale.ROOT, "cpu_s: %.3f%n", cpuKnown ? cpu / 1e9 : -1.0));
        b.append(String.format(Locale.ROOT, "cpu_us_per_request: %.1f%n", cpuKnown && ok > 0 ? cpu / 1e3 / ok : -1.0));
        long allocated = w.endAllocated - w.startAllocated;
        b.append("allocated_bytes_per_request: ").append(ok > 0 ? allocated / ok : 0).append('\n');
        b.append("allocated_bytes_method: ").append(RunFigures.allocatedBytesMethod()).append('\n');
        b.append("gc_count: ").append(w.endGcCount - w.startGcCount).append('\n');
        b.append("gc_time_ms: ").append(w.endGcMillis - w.startGcMillis).append('\n');
        b.append("peak_threads: ").append(w.peakThreads).append('\n');
        System.out.print(b);
        RunFigures.printStartToMain(System.out);
        System.out.flush();
    }

    /** The measured window of this JVM: from the first measured request's due time to the last one's answer. */
    private static final class Window {
        long startNanos;
        long endNanos;
        long startCpuNanos;
        long endCpuNanos;
        long startAllocated;
        long endAllocated;
        long startGcCount;
        long endGcCount;
        long startGcMillis;
        long endGcMillis;
        int peakThreads;

        void start() {
            startGcCount = RunFigures.gcCount();
            startGcMillis = RunFigures.gcMillis();
            startAllocated = RunFigures.allocatedBytesNow();
            startCpuNanos = RunFigures.processCpuNanos();
            startNanos = System.nanoTime();
        }

        void end() {
            endNanos = System.nanoTime();
            endCpuNanos = RunFigures.processCpuNanos();
            endAllocated = RunFigures.allocatedBytesNow();
            endGcCount = RunFigures.gcCount();
            endGcMillis = RunFigures.gcMillis();
        }
    }
}
