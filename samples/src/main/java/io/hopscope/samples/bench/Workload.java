package io.hopscope.samples.bench;

import java.util.ArrayList;
import java.util.List;

/** One workload of the bench: a row of the table, and the sample's options that make it. */
enum Workload {
    OKHTTP_SYNC_1K("okhttp-sync-1k", Kind.PIPELINE, false, "--http-client", "okhttp", "--mode", "sync", "--size", "1024"),
    OKHTTP_SYNC_64K("okhttp-sync-64k", Kind.PIPELINE, true, "--http-client", "okhttp", "--mode", "sync", "--size", "65536"),
    NETTY_SOA_1K("netty-soa-1k", Kind.PIPELINE, false, "--http-client", "netty", "--mode", "sync-over-async", "--size", "1024"),
    NETTY_SOA_64K("netty-soa-64k", Kind.PIPELINE, true, "--http-client", "netty", "--mode", "sync-over-async", "--size", "65536"),
    /** A remote service: 1 ms of server time per request, so the agent's cost is a smaller share. */
    OKHTTP_SYNC_DELAY1("okhttp-sync-1k-delay1", Kind.PIPELINE, true, "--http-client", "okhttp", "--mode", "sync", "--size", "1024",
            "--delay-ms", "1"),
    /**
     * Inbound requests (issue #40): {@code serve}'s thread-per-request service at a rate this machine
     * sustains without an agent (8 request threads against a 2 ms backend: about one of them busy at a
     * time). Its load is open: the rate is the same under every configuration, so the figure is the
     * service JVM's CPU per inbound request, not its throughput.
     */
    SERVE_POOL("serve-pool-400", Kind.SERVE, false, "--mode", "pool", "--rate", "400", "--threads", "8",
            "--backend-delay-ms", "2");

    /** Callers of every pipeline workload: the figures were taken with 8. */
    static final int PARALLEL = 8;

    final String label;
    final Kind kind;
    /** Whether the steady-state throughput target (>= 0.97 of baseline) applies: not to 1 KiB on loopback. */
    final boolean throughputTarget;
    private final List<String> options;

    Workload(String label, Kind kind, boolean throughputTarget, String... options) {
        this.label = label;
        this.kind = kind;
        this.throughputTarget = throughputTarget;
        this.options = List.of(options);
    }

    /** The sample's arguments for this workload, windows excluded. */
    List<String> args() {
        List<String> args = new ArrayList<>(kind == Kind.PIPELINE
                ? List.of("pipeline", "--parallel", Integer.toString(PARALLEL)) : List.of("serve"));
        args.addAll(options);
        return args;
    }

    /** The windows of one run as the sample's options: serve's open loop has no first window of its own. */
    List<String> windowArgs(RunLauncher.Windows windows) {
        return kind == Kind.PIPELINE ? windows.pipelineArgs()
                : List.of("--warmup", RunLauncher.Windows.fmt(windows.warmupS()), "--duration", RunLauncher.Windows.fmt(windows.durationS()));
    }

    /**
     * Which figures of a run's output a row reads: a closed loop's throughput and first window, or
     * none for an open loop (its rate is fixed); CPU, p99 latency and allocation per request.
     */
    enum Kind {
        PIPELINE("ops_per_s", "first_window_ops_per_s", "cpu_us_per_op", "latency_p99_us", "allocated_bytes_per_op"),
        SERVE(null, null, "cpu_us_per_request", "client_latency_p99_us", "allocated_bytes_per_request");

        final String throughputKey;
        final String firstWindowKey;
        final String cpuKey;
        final String p99Key;
        final String allocatedKey;

        Kind(String throughputKey, String firstWindowKey, String cpuKey, String p99Key, String allocatedKey) {
            this.throughputKey = throughputKey;
            this.firstWindowKey = firstWindowKey;
            this.cpuKey = cpuKey;
            this.p99Key = p99Key;
            this.allocatedKey = allocatedKey;
        }

        /** The figure without which a run has nothing to show. */
        String requiredKey() {
            return throughputKey != null ? throughputKey : cpuKey;
        }
    }

    static Workload byLabel(String label) {
        for (Workload w : values()) {
            if (w.label.equals(label)) {
                return w;
            }
        }
        return null;
    }

    static String labels() {
        StringBuilder b = new StringBuilder();
        for (Workload w : values()) {
            b.append(b.length() == 0 ? "" : ", ").append(w.label);
        }
        return b.toString();
    }
}
