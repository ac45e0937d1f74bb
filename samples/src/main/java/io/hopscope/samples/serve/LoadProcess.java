package io.hopscope.samples.serve;

import io.hopscope.samples.common.ResponseCheckException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The service's side of {@link ServeLoad}: the child JVM started with this JVM's java and class path
 * but none of its options, no java agent and none of the environment's JVM options (so an agent
 * given to {@code serve} through {@code JAVA_TOOL_OPTIONS} stays in the service), and its stdout read
 * line by line.
 */
final class LoadProcess implements AutoCloseable {

    /** The environment variables every JVM reads options from. */
    private static final List<String> JVM_OPTION_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");
    /** Stands for the end of the child's stdout in the queue. */
    private static final String EOF = "\u0000eof";

    private final Process process;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private LoadProcess(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        Thread reader = new Thread(this::read, "serve-load-reader");
        reader.setDaemon(true);
        reader.start();
    }

    static LoadProcess start(List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The serial collector: no GC threads of the load's own competing with the service for the cores.
        command.add("-XX:+UseSerialGC");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ServeLoad.class.getName()));
        command.addAll(args);
        Path stderr = Files.createTempFile("hopscope-serve-load-", ".log");
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(stderr.toFile());
        JVM_OPTION_VARIABLES.forEach(pb.environment()::remove);
        return new LoadProcess(pb.start(), stderr);
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // The child is gone; EOF below says so.
        }
        lines.add(EOF);
    }

    /** The next line that starts with {@code prefix} (others are skipped), within {@code timeoutS}; fails the run otherwise. */
    String await(String prefix, long timeoutS) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw failure("no '" + prefix.strip() + "' from the load process within " + timeoutS + " s");
            }
            if (EOF.equals(line)) {
                throw failure("the load process ended before '" + prefix.strip() + "'");
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** The {@code key: value} lines up to {@code # done}, in order. */
    Map<String, String> figures(long timeoutS) throws InterruptedException {
        Map<String, String> figures = new LinkedHashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null || EOF.equals(line)) {
                throw failure(line == null ? "the load process printed no '" + ServeLoad.DONE + "' within " + timeoutS + " s"
                        : "the load process ended before '" + ServeLoad.DONE + "'");
            }
            if (line.equals(ServeLoad.DONE)) {
                return figures;
            }
            int colon = line.indexOf(": ");
            if (colon > 0) {
                figures.put(line.substring(0, colon), line.substring(colon + 2));
            }
        }
    }

    void send(String line) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** Waits for the child to exit; a failed exit is the run's failure. */
    void awaitExit(long timeoutS) throws InterruptedException {
        if (!process.waitFor(timeoutS, TimeUnit.SECONDS)) {
            throw failure("the load process did not exit within " + timeoutS + " s");
        }
        if (process.exitValue() != 0) {
            throw failure("the load process exited " + process.exitValue());
        }
    }

    /** A failed run: one line, with the child's last stderr line and where the rest is. */
    private ResponseCheckException failure(String what) {
        String last = "";
        try {
            if (!process.isAlive()) {
                List<String> err = Files.readAllLines(stderr);
                for (int i = err.size() - 1; i >= 0 && last.isEmpty(); i--) {
                    last = err.get(i).strip();
                }
            }
        } catch (IOException e) {
            // Its log is unreadable: the line says where it was.
        }
        return new ResponseCheckException(what + (last.isEmpty() ? "" : ": " + last) + " (its stderr: " + stderr + ")");
    }

    @Override
    public void close() throws IOException {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (!process.isAlive() && process.exitValue() == 0) {
            Files.deleteIfExists(stderr);
        }
    }
}
