package io.hopscope.samples.bench;

import java.util.List;

/** One pipeline workload of the bench: a row of the table, and the pipeline options that make it. */
enum Workload {
    OKHTTP_SYNC_1K("okhttp-sync-1k", false, "--http-client", "okhttp", "--mode", "sync", "--size", "1024"),
    OKHTTP_SYNC_64K("okhttp-sync-64k", true, "--http-client", "okhttp", "--mode", "sync", "--size", "65536"),
    NETTY_SOA_1K("netty-soa-1k", false, "--http-client", "netty", "--mode", "sync-over-async", "--size", "1024"),
    NETTY_SOA_64K("netty-soa-64k", true, "--http-client", "netty", "--mode", "sync-over-async", "--size", "65536"),
    /** A remote service: 1 ms of server time per request, so the agent's cost is a smaller share. */
    OKHTTP_SYNC_DELAY1("okhttp-sync-1k-delay1", true, "--http-client", "okhttp", "--mode", "sync", "--size", "1024",
            "--delay-ms", "1");

    /** Callers of every workload: the figures were taken with 8. */
    static final int PARALLEL = 8;

    final String label;
    /** Whether the steady-state throughput target (>= 0.97 of baseline) applies: not to 1 KiB on loopback. */
    final boolean throughputTarget;
    private final List<String> options;

    Workload(String label, boolean throughputTarget, String... options) {
        this.label = label;
        this.throughputTarget = throughputTarget;
        this.options = List.of(options);
    }

    /** The pipeline subcommand's arguments for this workload, windows excluded. */
    List<String> pipelineArgs() {
        List<String> args = new java.util.ArrayList<>(List.of("pipeline", "--parallel", Integer.toString(PARALLEL)));
        args.addAll(options);
        return args;
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
