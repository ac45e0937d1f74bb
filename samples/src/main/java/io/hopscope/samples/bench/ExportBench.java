package io.hopscope.samples.bench;

import io.hopscope.samples.bench.TimedProcess.Usage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Part of the analyzer row: what {@code hopscope export} costs against {@code hopscope report} on the
 * recording the demo makes of Netty sync-over-async (the pipeline sample, 2 callers, 2 s warm-up and
 * 8 s), the export's target being at most the report's CPU. Each round runs the text report, then
 * export as OTLP, then as pprof, one after another, so a busy spell of the shared machine falls on all
 * three; every round is kept, and each figure's median is the one compared.
 */
final class ExportBench {

    private static final long TIMEOUT_S = 300;
    /** The demo's run: {@code hopscope demo}'s defaults. */
    private static final List<String> DEMO_NETTY = List.of("pipeline", "--http-client", "netty", "--mode", "sync-over-async",
            "--callers", "platform", "--parallel", "2", "--warmup", "2", "--duration", "8");

    private ExportBench() {
    }

    /** One round: the three commands' CPU, in the order they ran. */
    record Round(Usage report, Usage otlp, Usage pprof) {
    }

    /** The rounds, or why there are none. */
    record Result(long recordingBytes, List<Round> rounds, String whyNot) {

        Usage report() {
            return Usage.median(rounds.stream().map(Round::report).toList());
        }

        Usage otlp() {
            return Usage.median(rounds.stream().map(Round::otlp).toList());
        }

        Usage pprof() {
            return Usage.median(rounds.stream().map(Round::pprof).toList());
        }

        /** The dearer export's median CPU over the report's: the target is at most 1. */
        Double exportOverReport() {
            return whyNot != null ? null : Figures.ratio(Math.max(otlp().cpuS(), pprof().cpuS()), report().cpuS());
        }
    }

    static Result run(BenchTools tools, int rounds) throws InterruptedException {
        Path dir = tools.work.resolve("export");
        Path jfr = dir.resolve("netty-sync-over-async.jfr");
        try {
            Files.createDirectories(dir);
            record(tools, jfr, dir);
            String cli = tools.analyzerJar().toString();
            List<Round> done = new ArrayList<>();
            for (int i = 1; i <= rounds; i++) {
                Usage report = TimedProcess.run(List.of(tools.java.toString(), "-jar", cli, "report", jfr.toString()),
                        dir.resolve("report-" + i + ".log"), TIMEOUT_S);
                Usage otlp = TimedProcess.run(List.of(tools.java.toString(), "-jar", cli, "export", jfr.toString(),
                        "--format", "otlp", "-o", dir.resolve("export.otlp.pb").toString()),
                        dir.resolve("otlp-" + i + ".log"), TIMEOUT_S);
                Usage pprof = TimedProcess.run(List.of(tools.java.toString(), "-jar", cli, "export", jfr.toString(),
                        "--format", "pprof", "-o", dir.resolve("export.pb.gz").toString()),
                        dir.resolve("pprof-" + i + ".log"), TIMEOUT_S);
                done.add(new Round(report, otlp, pprof));
            }
            return new Result(Files.size(jfr), done, null);
        } catch (BenchTools.Unavailable e) {
            return new Result(0, List.of(), e.getMessage());
        } catch (IOException e) {
            return new Result(0, List.of(), "cannot run: " + e.getMessage());
        }
    }

    private static void record(BenchTools tools, Path jfr, Path dir)
            throws IOException, InterruptedException, BenchTools.Unavailable {
        List<String> command = new ArrayList<>(List.of(tools.java.toString(), "-javaagent:" + tools.agentJar + "=jfr=" + jfr,
                "-cp", System.getProperty("java.class.path"), "io.hopscope.samples.Samples"));
        command.addAll(DEMO_NETTY);
        Process p = new ProcessBuilder(command).redirectOutput(dir.resolve("record.out").toFile())
                .redirectError(dir.resolve("record.err").toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new BenchTools.Unavailable("recording the demo's Netty run did not end in time; see " + dir);
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(jfr)) {
            throw new BenchTools.Unavailable("recording the demo's Netty run failed (exit " + p.exitValue() + "); see " + dir);
        }
    }
}
