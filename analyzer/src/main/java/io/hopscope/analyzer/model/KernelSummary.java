package io.hopscope.analyzer.model;

import java.util.List;

/**
 * Kernel figures over all requests of one name: means per request and the top wakers (summed);
 * {@code incomplete} of the requests overlap lost eBPF records (then the means are lower bounds).
 */
public record KernelSummary(String name, long count, double meanOffCpuNanos, double meanRunQueueNanos,
                            double meanContextSwitches, double meanFutexWaits, List<Waker> wakers, long incomplete) {
}
