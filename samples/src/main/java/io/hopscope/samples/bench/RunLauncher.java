package io.hopscope.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One run: the workload's sample in its own JVM under one configuration (and, for
 * hopscope+offwake, bpf/offwake.py tracing it), its {@code key: value} figures read from stdout.
 * The run's folder keeps stdout, stderr and the tracer's log; recordings are deleted after the
 * run, since only the overhead of writing them is measured.
 */
final class RunLauncher {

    /** Beyond the run's own seconds: JVM start, agent install, the last requests, JFR's dump. */
    private static final long GRACE_SECONDS = 120;
    /**
     * How long offwake may take to decode what it buffered once the JVM has exited: about 20 us an interval
     * in Python, so a 35 s run's 2 M intervals take a minute on a quiet machine and several on a loaded one.
     * The run's figures are the JVM's, taken before.
     */
    private static final long TRACER_DRAIN_SECONDS = 900;

    /**
     * live's first lines are its own start: attach, the stream's first flushes, the JIT's first work on its
     * code. Its CPU per watched request is taken from this line (second) of its output on.
     */
    static final int LIVE_SKIP = 10;

    private final BenchTools tools;
    private final Windows windows;

    RunLauncher(BenchTools tools, Windows windows) {
        this.tools = tools;
        this.windows = windows;
    }

    /** Runs one workload under one configuration; a failure is the result's error, not an exception. */
    RunResult run(Workload workload, Configuration config, Path runDir) throws InterruptedException {
        try {
            Files.createDirectories(runDir);
            List<String> command = new ArrayList<>();
            command.add(tools.java.toString());
            command.addAll(tools.jvmOptions(config, runDir));
            // The samples' own class path: the jar when run with -jar, target/classes under a test.
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.hopscope.samples.Samples"));
            command.addAll(workload.args());
            command.addAll(workload.windowArgs(windows));
            Path out = runDir.resolve("stdout.txt");
            Path err = runDir.resolve("stderr.txt");
            Process child = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            Process tracer = config == Configuration.HOPSCOPE_OFFWAKE ? startTracer(child, runDir) : null;
            LiveWatch live = null;
            if (config == Configuration.HOPSCOPE_LIVE) {
                try {
                    live = LiveWatch.start(tools, child.pid(), tools.sink(), runDir.resolve("live.err"));
                } catch (BenchTools.Unavailable | IOException e) {
                    child.destroyForcibly();
                    child.waitFor(10, TimeUnit.SECONDS);
                    throw e;
                }
            }
            boolean exited = child.waitFor((long) windows.runSeconds() + GRACE_SECONDS, TimeUnit.SECONDS);
            if (!exited) {
                child.destroyForcibly();
                child.waitFor(10, TimeUnit.SECONDS);
            }
            String tracerError = tracer != null ? stopTracer(tracer, runDir) : null;
            Map<String, Double> liveFigures = new LinkedHashMap<>();
            if (live != null) {
                // live ends with the JVM it watches; its CPU per watched request from its LIVE_SKIP-th line on.
                live.awaitEnd(60);
                Double cpu = live.cpuUsPerRequest(LIVE_SKIP);
                if (cpu != null) {
                    liveFigures.put("live_cpu_us_per_request", cpu);
                }
                liveFigures.put("live_requests", (double) live.finished());
            }
            deleteRecordings(runDir);
            if (!exited) {
                return RunResult.failed("did not end within " + ((long) windows.runSeconds() + GRACE_SECONDS)
                        + " s; see " + runDir);
            }
            if (child.exitValue() != 0) {
                return RunResult.failed("exit " + child.exitValue() + ": " + lastLine(err) + " (see " + runDir + ")");
            }
            Map<String, Double> figures = parseFigures(Files.readString(out));
            figures.putAll(liveFigures);
            if (!figures.containsKey(workload.kind.requiredKey())) {
                return RunResult.failed("no " + workload.kind.requiredKey() + " in its output; see " + out);
            }
            if (tracerError != null) {
                return RunResult.failed(tracerError);
            }
            return RunResult.of(figures);
        } catch (BenchTools.Unavailable e) {
            return RunResult.unavailable(e.getMessage());
        } catch (IOException e) {
            return RunResult.failed("cannot run: " + e.getMessage());
        }
    }

    /** The numeric {@code key: value} lines of the sample's output; other lines are skipped. */
    static Map<String, Double> parseFigures(String stdout) {
        Map<String, Double> figures = new LinkedHashMap<>();
        for (String line : stdout.split("\n")) {
            int colon = line.indexOf(": ");
            if (colon <= 0) {
                continue;
            }
            try {
                figures.put(line.substring(0, colon).trim(), Double.parseDouble(line.substring(colon + 2).trim()));
            } catch (NumberFormatException e) {
                // A setting such as mode: sync.
            }
        }
        return figures;
    }

    private Process startTracer(Process child, Path runDir) throws IOException {
        return new ProcessBuilder(BenchTools.PYTHON, tools.offwake().toString(), "-p", Long.toString(child.pid()),
                "--events", runDir.resolve("offwake.jsonl").toString())
                .redirectErrorStream(true).redirectOutput(runDir.resolve("offwake.log").toFile()).start();
    }

    /** offwake ends on its own when the JVM exits; it is given time to drain, then stopped. Null when it went well. */
    private static String stopTracer(Process tracer, Path runDir) throws InterruptedException {
        if (!tracer.waitFor(TRACER_DRAIN_SECONDS, TimeUnit.SECONDS)) {
            tracer.destroy();
            if (!tracer.waitFor(10, TimeUnit.SECONDS)) {
                tracer.destroyForcibly();
            }
            return "offwake.py still ran " + TRACER_DRAIN_SECONDS + " s after the JVM ended; see " + runDir.resolve("offwake.log");
        }
        return tracer.exitValue() == 0 ? null
                : "offwake.py exited " + tracer.exitValue() + "; see " + runDir.resolve("offwake.log");
    }

    private static void deleteRecordings(Path runDir) throws IOException {
        try (Stream<Path> files = Files.list(runDir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.endsWith(".jfr") || name.endsWith(".jsonl")) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    private static String lastLine(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (!lines.get(i).isBlank()) {
                return lines.get(i).strip();
            }
        }
        return "(no stderr)";
    }

    /** The seconds of one run: the first window inside the warmup, then the measured (steady-state) window. */
    record Windows(double firstS, double warmupS, double durationS) {

        double runSeconds() {
            return Math.max(firstS, warmupS) + durationS;
        }

        List<String> pipelineArgs() {
            return List.of("--first-window", fmt(firstS), "--warmup", fmt(warmupS), "--duration", fmt(durationS));
        }

        static String fmt(double s) {
            return s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
        }
    }

    /** A run's figures, or why there are none: unavailable (the configuration cannot run here) or failed. */
    record RunResult(Map<String, Double> figures, String unavailable, String error) {

        static RunResult of(Map<String, Double> figures) {
            return new RunResult(figures, null, null);
        }

        static RunResult unavailable(String why) {
            return new RunResult(null, why, null);
        }

        static RunResult failed(String error) {
            return new RunResult(null, null, error);
        }

        boolean ok() {
            return figures != null;
        }

        Double figure(String key) {
            return figures == null ? null : figures.get(key);
        }
    }
}
