package io.hopscope.agent.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A helper process of spinning threads, one per core of the machine (io.hopscope.testapps.CpuHogApp),
 * that keeps every core busy from its start until it is closed: a test runs its JVM beside it to
 * see hops under a machine with no idle core. It ends with the test JVM too (its standard input, a
 * pipe from this one, closes).
 */
public final class CpuHog implements AutoCloseable {

    private final Process process;

    private CpuHog(Process process) {
        this.process = process;
    }

    /** Starts the hog and waits until its threads spin. */
    public static CpuHog start() throws IOException {
        int threads = Runtime.getRuntime().availableProcessors();
        Process p = new ProcessBuilder(AgentRun.javaHere(), "-cp", System.getProperty("hopscope.test.classes"),
                "io.hopscope.testapps.CpuHogApp", Integer.toString(threads))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("hog: ")) {
            p.destroyForcibly();
            throw new IOException("the CPU hog did not start: " + line);
        }
        return new CpuHog(p);
    }

    /** Whether it still runs (a hog that died early hogged nothing). */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** The CPU time its threads have taken so far (zero where the system does not say). */
    public Duration cpu() {
        return process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
