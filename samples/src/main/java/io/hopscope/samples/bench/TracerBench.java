package io.hopscope.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Not a JVM row: bpf/offwake.py's cost per off-CPU interval, from bpf/bench/switchcost.py (a futex
 * ping-pong pinned to one CPU; root and bcc only), and the events it lost meanwhile. No tracer
 * options are passed: it measures offwake's default mode (stacks of a sample of the intervals,
 * --stack-every), the one issue #22's target is for.
 */
final class TracerBench {

    private static final Pattern MEDIAN = Pattern.compile("median cost ([+-]?\\d+) ns per interval");
    private static final Pattern LOST = Pattern.compile("\\(lost (\\d+)\\+(\\d+)\\+(\\d+)\\)");
    private static final long TIMEOUT_S = 600;

    private TracerBench() {
    }

    static Result run(BenchTools tools, int rounds) throws InterruptedException {
        Path script = tools.root.resolve("bpf/bench/switchcost.py");
        String why = BenchTools.rootAndBccWhyNot(script);
        if (!why.isEmpty()) {
            return new Result(null, null, why);
        }
        try {
            Path dir = Files.createDirectories(tools.work.resolve("tracer"));
            Path out = dir.resolve("switchcost.txt");
            Process p = new ProcessBuilder(BenchTools.PYTHON, script.toString(), "--rounds", Integer.toString(rounds))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(TIMEOUT_S, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(null, null, "switchcost.py did not end within " + TIMEOUT_S + " s; see " + out);
            }
            return parse(Files.readString(out), p.exitValue(), out);
        } catch (IOException e) {
            return new Result(null, null, "cannot run switchcost.py: " + e.getMessage());
        }
    }

    /** The median cost and the lost events of all rounds from switchcost.py's output. */
    static Result parse(String output, int exitCode, Path out) {
        Matcher m = MEDIAN.matcher(output);
        if (exitCode != 0 || !m.find()) {
            List<String> lines = output.strip().lines().toList();
            return new Result(null, null, "switchcost.py exited " + exitCode + ": "
                    + (lines.isEmpty() ? "no output" : lines.get(lines.size() - 1)) + " (see " + out + ")");
        }
        long lost = 0;
        Matcher l = LOST.matcher(output);
        while (l.find()) {
            lost += Long.parseLong(l.group(1)) + Long.parseLong(l.group(2)) + Long.parseLong(l.group(3));
        }
        return new Result(Double.parseDouble(m.group(1)), lost, null);
    }

    /** Median ns per off-CPU interval and events lost, or why not measured. */
    record Result(Double costNsPerInterval, Long lostEvents, String whyNot) {
    }
}
