package io.hopscope.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * ParkExecuteBenchmark's cases timed by the calling thread's CPU time instead of the wall clock:
 * on a machine shared with other work, a thread waiting for a core adds wall time but no CPU time,
 * so the CPU nanoseconds per call stay readable where JMH's averages drown in preemption. Each case
 * runs {@value #ROUNDS} rounds of {@value #CALLS_PER_ROUND} calls after as many for warm-up; the
 * least CPU per call of the rounds is printed (a round preempted mid-way loses cache, not CPU time).
 * Run it with and without the agent (agent/bench/generic-hooks.sh); with the agent, the in-request
 * cases need {@code requests=io.hopscope.bench.ParkExecuteBenchmark#parksInRequest;...#executesInRequest}.
 * Not a cycle-exact figure: the calls are the benchmark's loops of {@link ParkExecuteBenchmark#CALLS}.
 */
public final class HookCpuCost {

    static final int ROUNDS = 5;
    static final int CALLS_PER_ROUND = 200_000;

    private HookCpuCost() {
    }

    interface Case {
        long run(ParkExecuteBenchmark state);
    }

    public static void main(String[] args) {
        ParkExecuteBenchmark state = new ParkExecuteBenchmark();
        report("parkNoRequest", state, ParkExecuteBenchmark::parksOutside);
        report("parkInRequest", state, ParkExecuteBenchmark::parksInRequest);
        report("executeNoRequest", state, ParkExecuteBenchmark::executesOutside);
        report("executeInRequest", state, ParkExecuteBenchmark::executesInRequest);
    }

    private static void report(String name, ParkExecuteBenchmark state, Case c) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int loops = CALLS_PER_ROUND / ParkExecuteBenchmark.CALLS;
        double best = Double.MAX_VALUE;
        long sink = 0;
        for (int round = 0; round < 2 * ROUNDS; round++) {
            long start = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < loops; i++) {
                sink += c.run(state);
            }
            double perCall = (threads.getCurrentThreadCpuTime() - start) / (double) CALLS_PER_ROUND;
            if (round >= ROUNDS) {
                best = Math.min(best, perCall);
            }
        }
        System.out.printf("%-18s %8.1f ns CPU/call (least of %d rounds of %,d calls; %d)%n", name, best, ROUNDS,
                CALLS_PER_ROUND, sink & 1);
    }
}
