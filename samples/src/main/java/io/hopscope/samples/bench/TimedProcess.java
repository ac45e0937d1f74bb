package io.hopscope.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One child process under {@code /usr/bin/time}: its wall time, CPU time (user + sys, all its
 * threads: JIT and GC included) and peak RSS, as analyzer/bench/report-vs-jfr-summary.sh measured them.
 */
final class TimedProcess {

    private TimedProcess() {
    }

    /** Runs {@code command} (stdout discarded, stderr to {@code log}); throws with the reason when it fails. */
    static Usage run(List<String> command, Path log, long timeoutS) throws IOException, InterruptedException, BenchTools.Unavailable {
        List<String> timed = new ArrayList<>(List.of(BenchTools.TIME, "-f", "time: %e %U %S %M"));
        timed.addAll(command);
        Process p = new ProcessBuilder(timed).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(log.toFile()).start();
        if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new BenchTools.Unavailable(command.get(0) + " did not end within " + timeoutS + " s; see " + log);
        }
        String time = null;
        for (String line : Files.readAllLines(log)) {
            if (line.startsWith("time: ")) {
                time = line;
            }
        }
        if (p.exitValue() != 0 || time == null) {
            throw new BenchTools.Unavailable(String.join(" ", command.subList(0, Math.min(3, command.size())))
                    + "... exited " + p.exitValue() + "; see " + log);
        }
        String[] f = time.substring("time: ".length()).trim().split("\\s+");
        return new Usage(Double.parseDouble(f[0]), Double.parseDouble(f[1]) + Double.parseDouble(f[2]),
                Long.parseLong(f[3]) / 1024.0);
    }

    /** Wall seconds, CPU seconds (user + sys), peak resident set in MB. */
    record Usage(double wallS, double cpuS, double peakRssMb) {

        /** Each figure's median over {@code runs} (the peak RSS too: one figure a run, like the others). */
        static Usage median(List<Usage> runs) {
            List<Double> wall = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            List<Double> rss = new ArrayList<>();
            for (Usage u : runs) {
                wall.add(u.wallS);
                cpu.add(u.cpuS);
                rss.add(u.peakRssMb);
            }
            return new Usage(Figures.median(wall), Figures.median(cpu), Figures.median(rss));
        }
    }
}
