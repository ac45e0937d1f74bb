package io.hopscope.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Part of the analyzer row: how the agent's exact allocated bytes per request (its per-segment
 * counters, which {@code hopscope report} sums over the requests) compare with two estimates of them,
 * on the pipeline sample under the agent, OkHttp sync and Netty sync-over-async, {@value #REQUESTS}
 * calls each: the process's own allocation per request (the sample's {@code allocated_bytes} over its
 * measured window, every thread's counter), of which the bytes in requests are a part at least as
 * large as what the JDK's allocation samples put outside requests leaves ({@code outsideRequestsShare});
 * and the JDK's sampled estimate of the bytes in requests ({@code sampledBytesInRequests}), which leans
 * high (a sample carries every byte its thread allocated since its last one, the caller's work between
 * requests included) and is throttled to 150 samples a second. Both estimates are statistical: their
 * ratios moved from 0.52 to 1.82 over runs of 1,000 requests, which is why they are figures here, with
 * targets, and no longer an integration test's bounds (AgentRecordingIT keeps what holds by construction).
 * Each run uses the JVM's defaults, as users run it: the JDK's samples are throttled per second, and C1
 * alone ends the run sooner, with fewer of them.
 */
final class AllocationBench {

    static final int REQUESTS = 10_000;
    private static final long TIMEOUT_S = 600;
    /** The clients compared: the label and the sample's arguments. */
    private static final List<List<String>> CLIENTS = List.of(
            List.of("okhttp-sync", "--http-client", "okhttp", "--mode", "sync"),
            List.of("netty-sync-over-async", "--http-client", "netty", "--mode", "sync-over-async"));
    /** report --format json's recording.allocation object, as JsonRecords writes it. */
    private static final Pattern ALLOCATION = Pattern.compile("\"allocation\"\\s*:\\s*\\{\\s*"
            + "\"requestsBytes\"\\s*:\\s*(-?\\d+)\\s*,\\s*\"sampledBytes\"\\s*:\\s*(-?\\d+)\\s*,\\s*"
            + "\"sampledBytesInRequests\"\\s*:\\s*(-?\\d+)\\s*,\\s*\"outsideRequestsShare\"\\s*:\\s*([-+0-9.eE]+|NaN)");

    private AllocationBench() {
    }

    /** One client's run: the sample's figures and the report's. */
    record Run(String client, long ops, long processBytes, long requestsBytes, long sampledBytesInRequests,
               double outsideShare) {

        /** The exact bytes in requests over the JDK's sampled estimate of them. */
        Double exactOverSampled() {
            return sampledBytesInRequests > 0 ? requestsBytes / (double) sampledBytesInRequests : null;
        }

        /** The exact bytes in requests (the calls' and their server's) per call. */
        double perRequest() {
            return requestsBytes / (double) ops;
        }

        /** The process's allocation per call over the measured window. */
        double processPerRequest() {
            return processBytes / (double) ops;
        }

        /** The least the bytes in requests can be if the JDK's samples placed them right. */
        double processPerRequestInside() {
            return processPerRequest() * (1 - outsideShare);
        }
    }

    /** The runs, or why there are none. */
    record Result(List<Run> runs, String whyNot) {
    }

    static Result run(BenchTools tools) throws InterruptedException {
        Path dir = tools.work.resolve("allocation");
        try {
            BenchTools.requireFile(tools.agentJar, "the hopscope agent", "build it with 'make build'");
            BenchTools.requireFile(tools.analyzerJar(), "the analyzer", "build it with 'make build'");
            Files.createDirectories(dir);
            List<Run> runs = new ArrayList<>();
            for (List<String> client : CLIENTS) {
                runs.add(run(tools, dir, client));
            }
            return new Result(runs, null);
        } catch (BenchTools.Unavailable e) {
            return new Result(List.of(), e.getMessage());
        } catch (IOException e) {
            return new Result(List.of(), "cannot run: " + e.getMessage());
        }
    }

    private static Run run(BenchTools tools, Path dir, List<String> client)
            throws IOException, InterruptedException, BenchTools.Unavailable {
        String label = client.get(0);
        Path jfr = dir.resolve(label + ".jfr");
        List<String> command = new ArrayList<>(List.of(tools.java.toString(), "-javaagent:" + tools.agentJar + "=jfr=" + jfr,
                "-cp", System.getProperty("java.class.path"), "io.hopscope.samples.Samples", "pipeline"));
        command.addAll(client.subList(1, client.size()));
        command.addAll(List.of("--parallel", "2", "--count", Integer.toString(REQUESTS)));
        String sample = exec(command, dir.resolve(label + ".out"), "the " + label + " run");
        if (!sample.contains("allocated_bytes_method: total")) {
            throw new BenchTools.Unavailable("the " + label + " run's JVM counts no allocation of ended threads"
                    + " (allocated_bytes_method is not total: its JDK has no getTotalThreadAllocatedBytes); see " + dir);
        }
        String report = exec(List.of(tools.java.toString(), "-jar", tools.analyzerJar().toString(), "report", jfr.toString(),
                "--format", "json", "--top", "0"), dir.resolve(label + "-report.json"), "the report of the " + label + " run");
        Files.deleteIfExists(jfr);
        return parse(label, sample, report);
    }

    /** A run's figures from the sample's output and the report's JSON. */
    static Run parse(String label, String sampleOutput, String reportJson) throws BenchTools.Unavailable {
        Matcher m = ALLOCATION.matcher(reportJson);
        if (!m.find()) {
            throw new BenchTools.Unavailable("no recording.allocation in the report of the " + label + " run");
        }
        return new Run(label, figure(sampleOutput, "ops"), figure(sampleOutput, "allocated_bytes"), Long.parseLong(m.group(1)),
                Long.parseLong(m.group(3)), Double.parseDouble(m.group(4)));
    }

    private static long figure(String sampleOutput, String key) throws BenchTools.Unavailable {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(key) + ": (\\d+)$").matcher(sampleOutput);
        if (!m.find()) {
            throw new BenchTools.Unavailable("no " + key + " in the sample's output");
        }
        return Long.parseLong(m.group(1));
    }

    private static String exec(List<String> command, Path out, String what)
            throws IOException, InterruptedException, BenchTools.Unavailable {
        Path err = out.resolveSibling(out.getFileName() + ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new BenchTools.Unavailable(what + " did not end in " + TIMEOUT_S + " s; see " + err);
        }
        if (p.exitValue() != 0) {
            throw new BenchTools.Unavailable(what + " failed (exit " + p.exitValue() + "); see " + err);
        }
        return Files.readString(out);
    }

    /** The figures of every run, as text. */
    static String line(Result a) {
        if (a.whyNot() != null) {
            return "allocation: not measured: " + a.whyNot();
        }
        List<String> runs = new ArrayList<>();
        for (Run r : a.runs()) {
            runs.add(String.format(Locale.ROOT, "%s exact / sampled in requests %.2f, %.0f B per request against the"
                            + " process's %.0f (%.0f less the %.1f%% the JDK's samples put outside requests)", r.client(),
                    r.exactOverSampled() == null ? Double.NaN : r.exactOverSampled(), r.perRequest(), r.processPerRequest(),
                    r.processPerRequestInside(), r.outsideShare() * 100));
        }
        return String.format(Locale.ROOT, "allocation (pipeline, %d calls a run under the agent, the JVM's defaults): %s",
                REQUESTS, String.join("; ", runs));
    }
}
