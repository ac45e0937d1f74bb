package io.hopscope.samples.bench;

import io.hopscope.samples.bench.TimedProcess.Usage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Not a JVM row: what {@code hopscope report} costs on a recording of the okhttp workload, with its
 * direct reader (the default) and with {@code --reader jdk}, against the floor of any analyzer built on
 * {@code jdk.jfr.consumer} (a bare single-threaded pass over the request events, analyzer/bench's
 * ParseFloor) under the same heap setting, at two settings: the
 * {@code -Xmx256m} the report must fit in, and the JVM's default. The two are never compared with
 * each other: under 256 MB the collector works harder, which the floor, keeping nothing, does not
 * show. Each round runs report, report with the JDK's reader and floor at 256 MB, the same at the
 * default heap, then the
 * JDK's {@code jfr summary}, one after another (interleaved: a shared machine's load moves all of a
 * round alike), {@code runs} rounds; each figure is the median of its runs, and every run is kept.
 * The 256 MB report writes a GC log; its heap figure is the largest occupancy after a collection in
 * any run, what it kept alive at most.
 */
final class AnalyzerBench {

    /** The heap the report must fit in (issue #22's target). */
    static final int HEAP_MB = 256;
    static final String BOUNDED = "-Xmx" + HEAP_MB + "m";
    static final String DEFAULT_HEAP = "default heap";
    private static final long TIMEOUT_S = 900;
    // "GC(12) Pause Young (Normal) (G1 Evacuation Pause) 151M->23M(256M) 4.1ms": the occupancy after.
    private static final Pattern GC_AFTER = Pattern.compile("\\d+[KMG]->(\\d+)([KMG])\\(");

    private AnalyzerBench() {
    }

    static Result run(BenchTools tools, double recordingS, int runs) throws InterruptedException {
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
            AtHeap bounded = new AtHeap(BOUNDED, new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            AtHeap defaultHeap = new AtHeap(DEFAULT_HEAP, new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            List<Usage> summaries = new ArrayList<>();
            double liveHeapMb = 0;
            for (int i = 1; i <= runs; i++) {
                Path reportLog = dir.resolve("report-" + i + ".log");
                try {
                    bounded.reports.add(TimedProcess.run(List.of(tools.java.toString(), BOUNDED,
                            "-Xlog:gc:file=" + dir.resolve("report-" + i + ".gc"), "-jar", tools.analyzerJar().toString(), "report",
                            jfr.toString()), reportLog, TIMEOUT_S));
                } catch (BenchTools.Unavailable e) {
                    if (Files.readString(reportLog).contains("OutOfMemoryError")) {
                        return new Result(recordingS, runs, recordingBytes, null, null, null, Double.NaN,
                                "hopscope report ran out of " + BOUNDED + "; see " + reportLog, true);
                    }
                    throw e;
                }
                liveHeapMb = Math.max(liveHeapMb, liveHeapMb(dir.resolve("report-" + i + ".gc")));
                bounded.jdkReports.add(TimedProcess.run(List.of(tools.java.toString(), BOUNDED, "-jar",
                        tools.analyzerJar().toString(), "report", jfr.toString(), "--reader", "jdk"),
                        dir.resolve("report-jdk-" + i + ".log"), TIMEOUT_S));
                bounded.floors.add(floor(tools, jfr, List.of(BOUNDED), dir.resolve("floor-" + i + ".log")));
                defaultHeap.reports.add(TimedProcess.run(List.of(tools.java.toString(), "-jar", tools.analyzerJar().toString(),
                        "report", jfr.toString()), dir.resolve("report-default-heap-" + i + ".log"), TIMEOUT_S));
                defaultHeap.jdkReports.add(TimedProcess.run(List.of(tools.java.toString(), "-jar",
                        tools.analyzerJar().toString(), "report", jfr.toString(), "--reader", "jdk"),
                        dir.resolve("report-jdk-default-heap-" + i + ".log"), TIMEOUT_S));
                defaultHeap.floors.add(floor(tools, jfr, List.of(), dir.resolve("floor-default-heap-" + i + ".log")));
                summaries.add(TimedProcess.run(List.of(jfrTool.toString(), "summary", jfr.toString()),
                        dir.resolve("summary-" + i + ".log"), TIMEOUT_S));
            }
            return new Result(recordingS, runs, recordingBytes, bounded, defaultHeap, TimedProcess.Usage.median(summaries),
                    liveHeapMb, null, false);
        } catch (BenchTools.Unavailable e) {
            return new Result(recordingS, runs, 0, null, null, null, Double.NaN, e.getMessage(), false);
        } catch (IOException e) {
            return new Result(recordingS, runs, 0, null, null, null, Double.NaN, "cannot run: " + e.getMessage(), false);
        } finally {
            try {
                Files.deleteIfExists(jfr);
            } catch (IOException e) {
                // Left in the work folder.
            }
        }
    }

    private static Usage floor(BenchTools tools, Path jfr, List<String> heap, Path log)
            throws IOException, InterruptedException, BenchTools.Unavailable {
        List<String> command = new ArrayList<>(List.of(tools.java.toString()));
        command.addAll(heap);
        command.addAll(List.of("-cp", tools.parseFloorClasses().toString(), "io.hopscope.analyzer.bench.ParseFloor",
                jfr.toString(), "bare"));
        return TimedProcess.run(command, log, TIMEOUT_S);
    }

    /** The okhttp sync workload under the agent for {@code seconds}, as the bench's JVM rows run it. */
    private static void record(BenchTools tools, Path jfr, double seconds, Path dir)
            throws IOException, InterruptedException, BenchTools.Unavailable {
        List<String> command = new ArrayList<>(List.of(tools.java.toString(), "-javaagent:" + tools.agentJar + "=jfr=" + jfr,
                "-cp", System.getProperty("java.class.path"), "io.hopscope.samples.Samples"));
        command.addAll(Workload.OKHTTP_SYNC_1K.args());
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

    /**
     * The largest heap occupancy after a collection in a {@code -Xlog:gc} file, in MB: what the
     * report kept alive at most. The heap before a collection is no measure of that: G1 lets garbage
     * fill whatever -Xmx allows; 0 when no collection ran.
     */
    static double liveHeapMb(Path gcLog) throws IOException {
        double max = 0;
        Matcher m = GC_AFTER.matcher(Files.readString(gcLog));
        while (m.find()) {
            double v = Double.parseDouble(m.group(1));
            max = Math.max(max, switch (m.group(2)) {
                case "K" -> v / 1024;
                case "G" -> v * 1024;
                default -> v;
            });
        }
        return max * 1024 * 1024 / 1e6;
    }

    /**
     * The report (direct reader), the report with {@code --reader jdk} and the floor under one heap setting
     * ({@link #BOUNDED} or {@link #DEFAULT_HEAP}), every run.
     */
    record AtHeap(String setting, List<Usage> reports, List<Usage> floors, List<Usage> jdkReports) {

        /** Without runs of the JDK's reader (a bench from before the direct one). */
        AtHeap(String setting, List<Usage> reports, List<Usage> floors) {
            this(setting, reports, floors, List.of());
        }

        Usage report() {
            return Usage.median(reports);
        }

        /** The report with the JDK's reader, medians; null when not run. */
        Usage jdkReport() {
            return jdkReports.isEmpty() ? null : Usage.median(jdkReports);
        }

        /** The report with the JDK's reader: CPU over the floor's, medians; null when not run. */
        Double jdkCpuOverFloor() {
            return jdkReports.isEmpty() ? null : Figures.ratio(jdkReport().cpuS(), floor().cpuS());
        }

        /** The report with the JDK's reader: wall time over the floor's, medians; null when not run. */
        Double jdkWallOverFloor() {
            return jdkReports.isEmpty() ? null : Figures.ratio(jdkReport().wallS(), floor().wallS());
        }

        Usage floor() {
            return Usage.median(floors);
        }

        /** report's CPU over the floor's, medians, both under this setting. */
        Double cpuOverFloor() {
            return Figures.ratio(report().cpuS(), floor().cpuS());
        }

        /** report's wall time over the single-threaded floor's, medians, both under this setting. */
        Double wallOverFloor() {
            return Figures.ratio(report().wallS(), floor().wallS());
        }
    }

    /**
     * The tools on one recording, or why the row was not measured (the report's running out of heap among
     * them): the report and the floor at each heap setting, and {@code jfr summary}; {@code export} against
     * {@code report} on the demo's Netty recording, or null; the agent's exact allocation against its
     * estimates ({@link AllocationBench}), or null.
     */
    record Result(double recordingS, int runs, long recordingBytes, AtHeap bounded, AtHeap defaultHeap, Usage jfrSummary,
                  double reportLiveHeapMb, String whyNot, boolean reportOutOfHeap, ExportBench.Result export,
                  AllocationBench.Result allocation) {

        Result(double recordingS, int runs, long recordingBytes, AtHeap bounded, AtHeap defaultHeap, Usage jfrSummary,
               double reportLiveHeapMb, String whyNot, boolean reportOutOfHeap) {
            this(recordingS, runs, recordingBytes, bounded, defaultHeap, jfrSummary, reportLiveHeapMb, whyNot, reportOutOfHeap,
                    null, null);
        }

        Result withExport(ExportBench.Result e) {
            return new Result(recordingS, runs, recordingBytes, bounded, defaultHeap, jfrSummary, reportLiveHeapMb, whyNot,
                    reportOutOfHeap, e, allocation);
        }

        Result withAllocation(AllocationBench.Result a) {
            return new Result(recordingS, runs, recordingBytes, bounded, defaultHeap, jfrSummary, reportLiveHeapMb, whyNot,
                    reportOutOfHeap, export, a);
        }

        /** Both settings, the bounded one first; empty when not measured. */
        List<AtHeap> heaps() {
            return whyNot != null ? List.of() : List.of(bounded, defaultHeap);
        }
    }
}
