package io.hopscope.samples.common;

import java.util.Map;
import java.util.concurrent.ThreadFactory;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The options every closed-loop scenario shares (request shape, the server and its answer, warmup,
 * measured window, caller threads), as a picocli mixin, with their checks and the figures' settings they add.
 */
public final class ClosedLoopOptions {

    @Option(names = "--size", defaultValue = "0", description = "Upload body bytes; 0 = GET (default ${DEFAULT-VALUE}).")
    public int uploadBytes;

    @Mixin
    public ServerOptions server = new ServerOptions();

    @Option(names = "--warmup", defaultValue = "0", description = "Warmup seconds, not measured (default ${DEFAULT-VALUE}).")
    public double warmupS;

    @Option(names = "--first-window", defaultValue = "0",
            description = "Also print first_window_* figures (ops/s, CPU per op) of the loop's first S seconds,"
                    + " warmup included; S <= --warmup (default ${DEFAULT-VALUE}: none).")
    public double firstWindowS;

    @Option(names = "--duration", description = "Measured seconds (default 10 unless --count is given).")
    Double durationS;

    @Option(names = "--count", description = "Measured requests instead of --duration.")
    Long count;

    @Option(names = "--callers", defaultValue = CallerThreads.PLATFORM,
            description = "Caller threads: platform, or virtual (JDK 21+); same names either way (default ${DEFAULT-VALUE}).")
    public String callers;

    /** Checks these options after the command's own, so the first bad option is the one reported. */
    public void check(CommandSpec spec) {
        Options.atLeast(spec, "--size", uploadBytes, 0);
        server.check(spec);
        Options.atLeast(spec, "--warmup", warmupS, 0);
        Options.check(spec, firstWindowS >= 0 && firstWindowS <= warmupS,
                "--first-window must be between 0 and --warmup (" + warmupS + "), got " + firstWindowS);
        Options.check(spec, durationS == null || count == null, "give --duration or --count, not both");
        Options.above(spec, "--duration", durationS, 0);
        Options.above(spec, "--count", count, 0);
        Options.oneOf(spec, "--callers", callers, CallerThreads.PLATFORM, CallerThreads.VIRTUAL);
        if (virtualCallers()) {
            CallerThreads.checkVirtualAvailable(spec, "--callers virtual");
        }
    }

    public boolean virtualCallers() {
        return CallerThreads.VIRTUAL.equals(callers);
    }

    /** The caller threads --callers asks for, named {@code prefix} and 1, 2, ... */
    public ThreadFactory callerThreads(String prefix) {
        return CallerThreads.factory(callers, prefix);
    }

    /** Measured requests, or 0 when the window is bounded by time. */
    public long measuredCount() {
        return count == null ? 0 : count;
    }

    /** Measured seconds: --duration, else 10 when no --count bounds the window, else 0 (unused). */
    public double measuredSeconds() {
        return durationS != null ? durationS : count == null ? 10 : 0;
    }

    /** Adds the request shape to a run's settings, after the scenario's own. */
    public void putSettings(Map<String, Object> settings) {
        settings.put("callers", callers);
        settings.put("upload_bytes", uploadBytes);
        settings.put("response_bytes", server.responseBytes);
    }
}
