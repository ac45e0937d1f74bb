package io.hopscope.agent.bench;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one handoff: ThreadPoolExecutor.execute plus the task's run on the pool thread, with and
 * without a current request. Run it with and without the agent (agent/bench/handoff.sh does both);
 * with the agent, {@link #inRequest} is the request boundary
 * ({@code requests=io.hopscope.agent.bench.HandoffBenchmark#inRequest}).
 * The caller spins until the task has run, so that a park/unpark round trip does not drown the
 * figure.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HandoffBenchmark {

    static final int HANDOFFS = 100;

    private ThreadPoolExecutor pool;
    private volatile long done;
    private long submitted;
    private final Runnable task = () -> done++;

    @Setup
    public void setUp() {
        pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        pool.prestartAllCoreThreads();
    }

    @TearDown
    public void tearDown() {
        pool.shutdownNow();
    }

    @Benchmark
    @OperationsPerInvocation(HANDOFFS)
    public long noRequest() {
        return handoffs(this);
    }

    @Benchmark
    @OperationsPerInvocation(HANDOFFS)
    public long withRequest() {
        return inRequest(this);
    }

    /** The request boundary: one request, {@value #HANDOFFS} handoffs. */
    public static long inRequest(HandoffBenchmark state) {
        return handoffs(state);
    }

    private static long handoffs(HandoffBenchmark state) {
        for (int i = 0; i < HANDOFFS; i++) {
            long target = ++state.submitted;
            state.pool.execute(state.task);
            while (state.done < target) {
                Thread.onSpinWait();
            }
        }
        return state.done;
    }
}
