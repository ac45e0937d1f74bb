package io.hopscope.samples.bench;

import io.hopscope.samples.bench.TimedProcess.Usage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Not a JVM row: what {@code hopscope report} costs on a recording of the okhttp workload, against
 * the floor of any analyzer built on {@code jdk.jfr.consumer} (a bare pass over the request events,
 * analyzer/bench's ParseFloor) and the JDK's {@code jfr summary} on the same file. The report runs
 * with {@code -Xmx256m}: that it ends well is the peak-heap target.
 */
final class AnalyzerBench {

    /** The heap the report must fit in (issue #22's target). */
    static final int HEAP_MB = 256;
    private static final long TIMEOUT_S = 900;

    private AnalyzerBench() {
    }

    static Result run(BenchTools tools, double recordingS) throws InterruptedException {
        Path dir = tools.work.resolve("analyzer");
        Path jfr = dir.resolve("recording.jfr");
        try {
            BenchTools.requireFile(tools.agentJar, "the hopscope agent", "build it with 'make build'");
            BenchTools.requireFile(tools.analyzerJar(), "the analyzer", "build it with 'make build'");
            BenchTools.requireFile(tools.parseFloorClasses().resolve("io/hopscope/analyzer/bench/ParseFloor.class"),
                    "analyzer/bench's ParseFloor", "build the analyzer's test classes: mvn -pl analyzer test-compile");
            BenchTools.requireFile(Path.of(BenchTools.TIME), "GNU time", "install it (apt-get install time)");
            Path jfrTool = tools.java.resolveSibling("jfr");
            BenchTools.requireFile(jfrTool, "the JDK's jfr tool", "run the bench on a JDK, not a JRE");
            Files.createDirectories(dir);
            record(tools, jfr, recordingS, dir);
            long recordingBytes = Files.size(jfr);
            Usage report;
            try {
                report = TimedProcess.run(List.of(tools.java.toString(), "-Xmx" + HEAP_MB + "m", "-jar",
                        tools.analyzerJar().toString(), "report", jfr.toString()), dir.resolve("report.log"), TIMEOUT_S);
            } catch (BenchTools.Unavailable e) {
                if (Files.readString(dir.resolve("report.log")).contains("OutOfMemoryError")) {
                    return new Result(recordingS, recordingBytes, null, null, null,
                            "hopscope report ran out of -Xmx" + HEAP_MB + "m; see " + dir.resolve("report.log"), true);
                }
                throw e;
            }
            Usage floor = TimedProcess.run(List.of(tools.java.toString(), "-cp", tools.parseFloorClasses().toString(),
                    "io.hopscope.analyzer.bench.ParseFloor", jfr.toString(), "bare"), dir.resolve("floor.log"), TIMEOUT_S);
            Usage summary = TimedProcess.run(List.of(jfrTool.toString(), "summary", jfr.toString()),
                    dir.resolve("summary.log"), TIMEOUT_S);
            return new Result(recordingS, recordingBytes, report, floor, summary, null, false);
        } catch (BenchTools.Unavailable e) {
            return new Result(recordingS, 0, null, null, null, e.getMessage(), false);
        } catch (IOException e) {
            return new Result(recordingS, 0, null, null, null, "cannot run: " + e.getMessage(), false);
        } finally {
            try {
                Files.deleteIfExists(jfr);
            } catch (IOException e) {
                // Left in the work folder.
            }
        }
    }

    /** The okhttp sync workload under the agent for {@code seconds}, as the bench's JVM rows run it. */
    private static void record(BenchTools tools, Path jfr, double seconds, Path dir)
            throws IOException, InterruptedException, BenchTools.Unavailable {
        List<String> command = new ArrayList<>(List.of(tools.java.toString(), "-javaagent:" + tools.agentJar + "=jfr=" + jfr,
                "-cp", System.getProperty("java.class.path"), "io.hopscope.samples.Samples"));
        command.addAll(Workload.OKHTTP_SYNC_1K.pipelineArgs());
        command.addAll(List.of("--duration", Double.toString(seconds)));
        Process p = new ProcessBuilder(command).redirectOutput(dir.resolve("record.out").toFile())
                .redirectError(dir.resolve("record.err").toFile()).start();
        if (!p.waitFor((long) seconds + 120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new BenchTools.Unavailable("recording the workload did not end in time; see " + dir);
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(jfr)) {
            throw new BenchTools.Unavailable("recording the workload failed (exit " + p.exitValue() + "); see " + dir);
        }
    }

    /** The three tools on one recording, or why the row was not measured (the report's running out of heap among them). */
    record Result(double recordingS, long recordingBytes, Usage report, Usage floor, Usage jfrSummary, String whyNot,
                  boolean reportOutOfHeap) {

        /** report's CPU over the bare floor's. */
        Double cpuOverFloor() {
            return whyNot != null ? null : Figures.ratio(report.cpuS(), floor.cpuS());
        }
    }
}
