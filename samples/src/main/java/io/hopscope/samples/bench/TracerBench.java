package io.hopscope.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Not a JVM row: bpf/offwake.py's cost per off-CPU interval beside the floor no change to its programs can go
 * below (empty programs on the same tracepoints, bpf/bench/emptytool.py), both from bpf/bench/switchcost.py
 * --empty (a futex ping-pong pinned to one CPU; root and bcc only), interleaved round by round, and the events
 * offwake lost meanwhile. No tracer options are passed: it measures offwake's default mode. The figure the
 * target is on is offwake's cost above the floor of the same round (issue #34): the machine's load moves
 * both, and a floor measured another time would say little.
 */
final class TracerBench {

    static final String FLOOR = "empty programs";
    private static final Pattern ROUND = Pattern.compile("(?m)^round (\\d+)  (.+?) +untraced +\\d+ ns/handoff  traced +\\d+"
            + "  cost +([+-]?\\d+) ns per interval(?:  \\(lost (\\d+)\\+(\\d+)\\+(\\d+)\\))?$");
    // offwake decodes every interval in Python once a round's trace ends (about 20 us each, 1.3 M of them in
    // 2 s of the ping-pong): a round took 5-10 minutes on a loaded 2-core machine.
    private static final long TIMEOUT_S = 3600;
    // 2 s untraced and 2 s traced a round (switchcost.py's --before and --trace): the cost is the median of
    // the half seconds inside each window, and a shorter trace is fewer intervals to decode.
    private static final String SECONDS = "2";

    private TracerBench() {
    }

    static Result run(BenchTools tools, int rounds) throws InterruptedException {
        Path script = tools.root.resolve("bpf/bench/switchcost.py");
        String why = BenchTools.rootAndBccWhyNot(script);
        if (!why.isEmpty()) {
            return Result.notMeasured(why);
        }
        try {
            Path dir = Files.createDirectories(tools.work.resolve("tracer"));
            Path out = dir.resolve("switchcost.txt");
            Process p = new ProcessBuilder(BenchTools.PYTHON, script.toString(), "--rounds", Integer.toString(rounds), "--empty",
                    "--before", SECONDS, "--trace", SECONDS)
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Result.notMeasured("switchcost.py did not end within " + TIMEOUT_S + " s; see " + out);
            }
            return parse(Files.readString(out), p.exitValue(), out);
        } catch (IOException e) {
            return Result.notMeasured("cannot run switchcost.py: " + e.getMessage());
        }
    }

    /** Every round's offwake and floor costs, and offwake's lost events, from switchcost.py --empty's output. */
    static Result parse(String output, int exitCode, Path out) {
        List<Round> rounds = new ArrayList<>();
        Matcher m = ROUND.matcher(output);
        // switchcost.py prints each round's tool first, then the floor: a round is the pair.
        Double tracer = null;
        long tracerLost = 0;
        while (m.find()) {
            double cost = Double.parseDouble(m.group(3));
            if (FLOOR.equals(m.group(2).strip())) {
                if (tracer != null) {
                    rounds.add(new Round(Integer.parseInt(m.group(1)), tracer, cost, tracerLost));
                }
                tracer = null;
            } else {
                tracer = cost;
                tracerLost = m.group(4) == null ? 0
                        : Long.parseLong(m.group(4)) + Long.parseLong(m.group(5)) + Long.parseLong(m.group(6));
            }
        }
        if (exitCode != 0 || rounds.isEmpty()) {
            List<String> lines = output.strip().lines().toList();
            return Result.notMeasured("switchcost.py exited " + exitCode + ": "
                    + (lines.isEmpty() ? "no output" : lines.get(lines.size() - 1)) + " (see " + out + ")");
        }
        return new Result(rounds, null);
    }

    /** One round: offwake's and the empty programs' cost per off-CPU interval (ns), and offwake's lost events. */
    record Round(int round, double tracerNs, double floorNs, long lostEvents) {
        double aboveFloorNs() {
            return tracerNs - floorNs;
        }
    }

    /** Every round, or why not measured. */
    record Result(List<Round> rounds, String whyNot) {

        static Result notMeasured(String why) {
            return new Result(List.of(), why);
        }

        Double costNsPerInterval() {
            return rounds.isEmpty() ? null : median(rounds.stream().mapToDouble(Round::tracerNs).toArray());
        }

        Double floorNsPerInterval() {
            return rounds.isEmpty() ? null : median(rounds.stream().mapToDouble(Round::floorNs).toArray());
        }

        /** The median over rounds of offwake's cost above the floor of the same round. */
        Double aboveFloorNs() {
            return rounds.isEmpty() ? null : median(rounds.stream().mapToDouble(Round::aboveFloorNs).toArray());
        }

        Long lostEvents() {
            return rounds.isEmpty() ? null : rounds.stream().mapToLong(Round::lostEvents).sum();
        }

        private static double median(double[] v) {
            double[] s = v.clone();
            Arrays.sort(s);
            return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        }
    }
}
