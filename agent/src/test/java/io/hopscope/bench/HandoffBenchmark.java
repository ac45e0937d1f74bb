package io.hopscope.bench;

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
 * ({@code requests=io.hopscope.bench.HandoffBenchmark#inRequest}).
 * (Not under io.hopscope.agent: the agent never instruments its own packages.)
 * The caller spins until the task has run, so that a park/unpark round trip does not drown the
 * figure; on a machine with fewer idle cores than two, the spinning caller and the pool thread
 * compete and the figure is noise. The submit-only cases measure the submitting side alone.
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
    /** Shut down and discarding: execute() runs the agent's submit side only, on one thread. */
    private ThreadPoolExecutor discarding;
    private volatile long done;
    private long submitted;
    private final Runnable task = () -> done++;

    @Setup
    public void setUp() {
        pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        pool.prestartAllCoreThreads();
        discarding = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                new ThreadPoolExecutor.DiscardPolicy());
        discarding.shutdown();
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

    /** Submit side only (wrapping the task when a request is current), no thread crossing. */
    @Benchmark
    @OperationsPerInvocation(HANDOFFS)
    public long submitOnlyNoRequest() {
        return submits(this);
    }

    @Benchmark
    @OperationsPerInvocation(HANDOFFS)
    public long submitOnlyWithRequest() {
        return inRequestSubmitOnly(this);
    }

    /** The request boundary: one request, {@value #HANDOFFS} handoffs. */
    public static long inRequest(HandoffBenchmark state) {
        return handoffs(state);
    }

    /** The request boundary of the submit-only case. */
    public static long inRequestSubmitOnly(HandoffBenchmark state) {
        return submits(state);
    }

    private static long submits(HandoffBenchmark state) {
        for (int i = 0; i < HANDOFFS; i++) {
            state.discarding.execute(state.task);
        }
        return state.submitted;
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
