package io.hopscope.samples.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code hopscope live PID --json --otlp} on a bench's JVM, as a fleet runs it (its exports to a local
 * endpoint that takes everything, {@link Sink}), with what the bench reads of it: the requests it saw
 * finish (its JSON lines' {@code finished}), and its CPU and memory from /proc.
 */
final class LiveWatch implements AutoCloseable {

    // Each name's finished requests in one interval's JSON line (not finishedBegunBefore: another key).
    private static final Pattern FINISHED = Pattern.compile("\"finished\":(\\d+)");

    /** An OTLP/HTTP endpoint in the bench's JVM that takes every POST (200, empty), counting them. */
    static final class Sink implements AutoCloseable {
        private final HttpServer server;
        final AtomicLong posts = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();

        Sink() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                bytes.addAndGet(exchange.getRequestBody().readAllBytes().length);
                posts.incrementAndGet();
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    /** One JSON line of live: when it came, the finished requests so far, live's CPU then (ns). */
    record Line(long nanoTime, long finishedSoFar, long cpuNanos) {
    }

    final Process process;
    private final List<Line> lines = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong finished = new AtomicLong();

    private LiveWatch(Process process) {
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    Matcher m = FINISHED.matcher(line);
                    long n = 0;
                    while (m.find()) {
                        n += Long.parseLong(m.group(1));
                    }
                    lines.add(new Line(System.nanoTime(), finished.addAndGet(n), Proc.cpuNanos(process.pid())));
                }
            } catch (IOException e) {
                // live is gone
            }
        }, "bench-live-lines");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts live on {@code target} once its JVM can be attached to (its SIGQUIT handler installed: the
     * attach handshake's SIGQUIT ends a JVM still starting), exporting to {@code sink}; stderr to {@code err}.
     */
    static LiveWatch start(BenchTools tools, long target, Sink sink, Path err, String... extra)
            throws IOException, InterruptedException, BenchTools.Unavailable {
        BenchTools.requireFile(tools.analyzerJar(), "the hopscope CLI", "build it with 'make build'");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Proc.handlesSigquit(target)) {
            if (System.nanoTime() > deadline || !ProcessHandle.of(target).map(ProcessHandle::isAlive).orElse(false)) {
                throw new BenchTools.Unavailable("process " + target + " never became attachable");
            }
            Thread.sleep(20);
        }
        // As the release archive's bin/hopscope runs live (scripts/hopscope): the serial collector, a bounded heap.
        List<String> command = new ArrayList<>(List.of(tools.java.toString(), "-XX:+UseSerialGC", "-Xmx256m", "-jar",
                tools.analyzerJar().toString(), "live",
                Long.toString(target), "--json", "--otlp", sink.url(), "--service-name", "bench"));
        command.addAll(List.of(extra));
        return new LiveWatch(new ProcessBuilder(command).redirectError(err.toFile()).start());
    }

    /** The requests live saw finish so far. */
    long finished() {
        return finished.get();
    }

    /** Its JSON lines so far. */
    List<Line> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /**
     * live's CPU per request it saw finish (us), from its {@code skip}-th line to its last: its own start,
     * attach and first seconds left out. Null without enough lines.
     */
    Double cpuUsPerRequest(int skip) {
        List<Line> all = lines();
        if (all.size() < skip + 2) {
            return null;
        }
        Line first = all.get(skip);
        Line last = all.get(all.size() - 1);
        long requests = last.finishedSoFar() - first.finishedSoFar();
        return requests <= 0 || last.cpuNanos() < 0 ? null : (last.cpuNanos() - first.cpuNanos()) / 1e3 / requests;
    }

    /** Waits for live to end on its own (its JVM exited); Ctrl-C after {@code seconds}. */
    void awaitEnd(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            interrupt(60);
        }
    }

    /** Ctrl-C, and waits up to {@code seconds} for live's last line. */
    void interrupt(long seconds) throws InterruptedException {
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
        } catch (IOException e) {
            process.destroy();
        }
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            interrupt(30);
        }
    }

    /** What the bench reads of a process in /proc (Linux): CPU, resident memory, whether it takes SIGQUIT. */
    static final class Proc {
        private static final long TICKS_PER_SECOND = ticksPerSecond();

        private Proc() {
        }

        /** User + system CPU of the process, all its threads, in ns; -1 when it is gone. */
        static long cpuNanos(long pid) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                // The command name may hold spaces: the fields counted after its closing parenthesis.
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * (1_000_000_000L / TICKS_PER_SECOND);
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }

        /** Resident set in MB, or -1. */
        static double rssMb(long pid) {
            return statusKb(pid, "VmRSS:") / 1024.0;
        }

        static boolean handlesSigquit(long pid) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                    if (line.startsWith("SigCgt:")) {
                        return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << 2)) != 0;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // gone
            }
            return false;
        }

        private static long statusKb(long pid, String key) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                    if (line.startsWith(key)) {
                        return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // gone
            }
            return -1;
        }

        private static long ticksPerSecond() {
            try {
                Process p = new ProcessBuilder("getconf", "CLK_TCK").start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                p.waitFor(10, TimeUnit.SECONDS);
                return Long.parseLong(out);
            } catch (IOException | RuntimeException e) {
                return 100;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 100;
            }
        }
    }
}
