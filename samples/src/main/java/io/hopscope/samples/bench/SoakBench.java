package io.hopscope.samples.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code bench --soak MINUTES} (issue #43): {@code hopscope live --otlp} on a steady pipeline sample for
 * that long, and once a minute, of both processes, the resident set and the heap after a full GC
 * ({@code jcmd GC.run}, then {@code GC.heap_info}: what stays, not what the collector has not reclaimed
 * yet), the target's JFR repository on disk and live's local copy of its stream, and live's CPU per
 * request it watched in that minute. A live that grows, or costs more as the hours go, shows as a trend
 * down the table. The exports go to an endpoint in the bench's JVM that takes them all: the Collector's
 * own cost is not live's.
 */
final class SoakBench {

    /** The workload: Netty sync-over-async (a handoff and a wake a request), two callers, a 2 ms server. */
    static final List<String> WORKLOAD = List.of("pipeline", "--http-client", "netty", "--mode", "sync-over-async",
            "--parallel", "2", "--delay-ms", "2");

    /** One minute of the soak: its requests and what each process held at its end. */
    record Minute(int minute, long requests, double liveCpuUsPerRequest, double targetCpuUsPerRequest, double liveRssMb,
                  double liveHeapMb, double targetRssMb, double targetHeapMb, double targetRepositoryMb,
                  double liveRepositoryMb, String load) {
    }

    /** The soak, or why it could not run. */
    record Result(int minutes, List<Minute> table, long exportsTaken, long exportBytes, String liveLastLine,
                  String whyNot) {
    }

    private SoakBench() {
    }

    static Result run(BenchTools tools, int minutes, PrintWriter err) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(tools.work.resolve("soak"));
        Path jcmd = tools.java.resolveSibling("jcmd");
        List<String> command = new ArrayList<>(List.of(tools.java.toString(), "-javaagent:" + tools.agentJar, "-cp",
                System.getProperty("java.class.path"), "io.hopscope.samples.Samples"));
        command.addAll(WORKLOAD);
        command.addAll(List.of("--duration", Long.toString(minutes * 60L + 600)));
        try {
            BenchTools.requireFile(tools.agentJar, "the hopscope agent", "build it with 'make build'");
        } catch (BenchTools.Unavailable e) {
            return new Result(minutes, List.of(), 0, 0, null, e.getMessage());
        }
        Process target = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("target.txt").toFile())
                .start();
        List<Minute> table = new ArrayList<>();
        try (LiveWatch.Sink sink = new LiveWatch.Sink()) {
            LiveWatch live;
            try {
                live = LiveWatch.start(tools, target.pid(), sink, dir.resolve("live.err"));
            } catch (BenchTools.Unavailable e) {
                return new Result(minutes, List.of(), 0, 0, null, e.getMessage());
            }
            try {
                Path targetRepository = null;
                long start = System.nanoTime();
                long lastFinished = 0;
                long lastLiveCpu = LiveWatch.Proc.cpuNanos(live.process.pid());
                long lastTargetCpu = LiveWatch.Proc.cpuNanos(target.pid());
                for (int m = 1; m <= minutes; m++) {
                    long due = start + TimeUnit.MINUTES.toNanos(m);
                    while (System.nanoTime() < due) {
                        if (!target.isAlive() || !live.process.isAlive()) {
                            return new Result(minutes, table, sink.posts.get(), sink.bytes.get(), lastLine(dir),
                                    (target.isAlive() ? "live" : "the target") + " ended in minute " + m + "; see " + dir);
                        }
                        Thread.sleep(Math.min(1000, Math.max(1, TimeUnit.NANOSECONDS.toMillis(due - System.nanoTime()))));
                    }
                    long finished = live.finished();
                    long liveCpu = LiveWatch.Proc.cpuNanos(live.process.pid());
                    long targetCpu = LiveWatch.Proc.cpuNanos(target.pid());
                    long requests = finished - lastFinished;
                    if (targetRepository == null) {
                        targetRepository = repository(jcmd, target.pid()); // once live's recording has made one
                    }
                    double liveHeap = heapAfterGcMb(jcmd, live.process.pid());
                    double targetHeap = heapAfterGcMb(jcmd, target.pid());
                    Minute minute = new Minute(m, requests, perRequest(liveCpu - lastLiveCpu, requests),
                            perRequest(targetCpu - lastTargetCpu, requests), LiveWatch.Proc.rssMb(live.process.pid()), liveHeap,
                            LiveWatch.Proc.rssMb(target.pid()), targetHeap, sizeMb(targetRepository),
                            sizeMb(streamCopy(live.process.pid())), Machine.loadAverage());
                    table.add(minute);
                    err.println("bench: soak " + line(minute));
                    err.flush();
                    // The GCs' own CPU (jcmd GC.run) counts in the next minute: a full GC of a small heap, once.
                    lastFinished = finished;
                    lastLiveCpu = LiveWatch.Proc.cpuNanos(live.process.pid());
                    lastTargetCpu = LiveWatch.Proc.cpuNanos(target.pid());
                }
            } finally {
                live.interrupt(120);
            }
            return new Result(minutes, table, sink.posts.get(), sink.bytes.get(), lastLine(dir), null);
        } finally {
            target.destroy();
            if (!target.waitFor(60, TimeUnit.SECONDS)) {
                target.destroyForcibly();
            }
        }
    }

    private static double perRequest(long cpuNanos, long requests) {
        return requests <= 0 ? Double.NaN : cpuNanos / 1e3 / requests;
    }

    private static String lastLine(Path dir) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("live.err"));
        return lines.isEmpty() ? null : lines.get(lines.size() - 1);
    }

    /**
     * The target's JFR repository (jcmd JFR.configure), where its chunks are written before live streams
     * them; null before a recording has made one ("N/A").
     */
    private static Path repository(Path jcmd, long pid) throws IOException, InterruptedException {
        Matcher m = Pattern.compile("Repository path: (/\\S+)").matcher(run(jcmd, pid, "JFR.configure"));
        return m.find() ? Path.of(m.group(1)) : null;
    }

    /** The heap in use right after a full GC (G1's "used" in GC.heap_info), in MB; NaN when jcmd says nothing. */
    static double heapAfterGcMb(Path jcmd, long pid) throws IOException, InterruptedException {
        run(jcmd, pid, "GC.run");
        return usedMb(run(jcmd, pid, "GC.heap_info"));
    }

    /**
     * The heap in use in a GC.heap_info answer, in MB: G1's one "garbage-first heap ... used NK", or the sum of
     * the generations' (serial's and parallel's young and old); Metaspace and class space are not heap.
     */
    static double usedMb(String heapInfo) {
        Pattern used = Pattern.compile("used (\\d+)K");
        long kb = 0;
        boolean found = false;
        for (String line : heapInfo.split("\n")) {
            String t = line.strip();
            if (t.startsWith("Metaspace") || t.startsWith("class space")) {
                continue;
            }
            Matcher m = used.matcher(t);
            if (m.find()) {
                kb += Long.parseLong(m.group(1));
                found = true;
            }
        }
        return found ? kb / 1024.0 : Double.NaN;
    }

    private static String run(Path jcmd, long pid, String what) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), what).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    /** The folder of the chunk files live holds open: its local copy of the target's stream. */
    private static Path streamCopy(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    if (target.toString().endsWith(".jfr")) {
                        return target.getParent();
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException e) {
            // gone
        }
        return null;
    }

    private static double sizeMb(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return Double.NaN;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0; // deleted meanwhile
                }
            }).sum() / 1e6;
        } catch (IOException | java.io.UncheckedIOException e) {
            return Double.NaN;
        }
    }

    private static String line(Minute m) {
        return String.format(Locale.ROOT, "minute %d: %d requests, live %.1f us CPU/request, RSS %.0f MB, heap %.1f MB;"
                        + " target %.1f us CPU/request, RSS %.0f MB, heap %.1f MB, JFR repository %.1f MB, live's copy %.1f MB;"
                        + " load %s", m.minute(), m.requests(), m.liveCpuUsPerRequest(), m.liveRssMb(), m.liveHeapMb(),
                m.targetCpuUsPerRequest(), m.targetRssMb(), m.targetHeapMb(), m.targetRepositoryMb(), m.liveRepositoryMb(),
                m.load());
    }

    /** The soak as people read it: every minute's line, then first against last. */
    static String text(Result r) {
        StringBuilder b = new StringBuilder();
        if (r.whyNot() != null) {
            b.append("soak not completed: ").append(r.whyNot()).append('\n');
        }
        for (Minute m : r.table()) {
            b.append(line(m)).append('\n');
        }
        summary(r).forEach(l -> b.append(l).append('\n'));
        return b.toString();
    }

    /** The markdown between the bench-soak markers of docs/performance.md. */
    static String markdown(Result r, String command, Machine machine, double elapsedS) {
        StringBuilder b = new StringBuilder();
        b.append("Measured by `bench --soak` (").append(r.minutes()).append(" minutes; each minute's figures at its end,"
                + " heaps after a full GC):\n\n```\n").append(command).append("\n```\n\n");
        if (r.whyNot() != null) {
            b.append("Not completed: ").append(r.whyNot()).append("\n\n");
        }
        List<List<String>> rows = new ArrayList<>();
        for (Minute m : r.table()) {
            rows.add(List.of(Integer.toString(m.minute()), Long.toString(m.requests()), f1(m.liveCpuUsPerRequest()),
                    f0(m.liveRssMb()), f1(m.liveHeapMb()), f1(m.targetCpuUsPerRequest()), f0(m.targetRssMb()),
                    f1(m.targetHeapMb()), f1(m.targetRepositoryMb()), f1(m.liveRepositoryMb()), m.load()));
        }
        b.append(Table.markdown(List.of("minute", "requests", "live CPU us/req", "live RSS MB", "live heap MB",
                "target CPU us/req", "target RSS MB", "target heap MB", "target JFR repo MB", "live's stream copy MB",
                "load 1/5/15"), rows)).append('\n');
        summary(r).forEach(l -> b.append("- ").append(l).append('\n'));
        b.append("- workload: `").append(String.join(" ", WORKLOAD)).append("` under the agent (no `jfr=`), watched by `live"
                + " PID --json --otlp` (profiles every 60 s, metrics every second) into an endpoint in the bench's JVM\n");
        b.append("- machine: ").append(machine.cpuModel()).append(", ").append(machine.cores()).append(" cores, ")
                .append(machine.kernel()).append("; JDK: ").append(machine.jdk()).append('\n');
        b.append("- load average before: ").append(machine.loadBefore()).append(", after: ").append(machine.loadAfter())
                .append('\n');
        b.append(String.format(Locale.ROOT, "- took %.0f s%n", elapsedS));
        return b.toString();
    }

    private static List<String> summary(Result r) {
        List<String> lines = new ArrayList<>();
        List<Minute> t = r.table();
        if (t.size() < 2) {
            return lines;
        }
        Minute first = t.get(Math.min(1, t.size() - 1)); // minute 2: after live's own start
        Minute last = t.get(t.size() - 1);
        lines.add(String.format(Locale.ROOT, "minute %d against minute %d: live RSS %.0f -> %.0f MB (max %.0f), heap after GC"
                        + " %.1f -> %.1f MB (max %.1f); target RSS %.0f -> %.0f MB (max %.0f), heap %.1f -> %.1f MB, JFR"
                        + " repository %.1f -> %.1f MB (max %.1f); live's CPU %.1f -> %.1f us per watched request"
                        + " (median over minutes 2-%d %.1f)",
                first.minute(), last.minute(), first.liveRssMb(), last.liveRssMb(), max(t, Minute::liveRssMb),
                first.liveHeapMb(), last.liveHeapMb(), max(t, Minute::liveHeapMb), first.targetRssMb(), last.targetRssMb(),
                max(t, Minute::targetRssMb), first.targetHeapMb(), last.targetHeapMb(), first.targetRepositoryMb(),
                last.targetRepositoryMb(), max(t, Minute::targetRepositoryMb), first.liveCpuUsPerRequest(),
                last.liveCpuUsPerRequest(), last.minute(), Figures.median(t.subList(1, t.size()).stream()
                        .map(Minute::liveCpuUsPerRequest).filter(v -> !v.isNaN()).toList())));
        long requests = t.stream().mapToLong(Minute::requests).sum();
        lines.add(String.format(Locale.ROOT, "%d requests watched (%.0f a second); the endpoint took %d exports, %.1f MB;"
                + " live's last line: %s", requests, requests / (t.size() * 60.0), r.exportsTaken(), r.exportBytes() / 1e6,
                r.liveLastLine()));
        return lines;
    }

    private static double max(List<Minute> t, java.util.function.ToDoubleFunction<Minute> f) {
        return t.stream().mapToDouble(f).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
    }

    private static String f0(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    private static String f1(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }
}
