package io.hopscope.bench;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of the generic hooks on the calling thread: LockSupport#park (the parks hook) and the execute
 * of an executor that is not the JDK's (the any-executor hook), outside a request and inside one.
 * A park here never blocks: the thread unparks itself first, so park returns at once and the figure
 * is the hook's, not a context switch's (a real park costs microseconds). The executor runs its
 * task inline, so the figure is the wrapping and the task's (no-hop) entry, not a thread crossing.
 * Run it with and without the agent, and with {@code disable=parks;any-executor} to see these two
 * hooks apart (agent/bench/generic-hooks.sh, which also runs HookCpuCost: the same cases by CPU
 * time, readable on a loaded machine); with the agent, {@link #parksInRequest} and
 * {@link #executesInRequest} are request boundaries.
 * (Not under io.hopscope.agent: the agent never instruments its own packages.)
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ParkExecuteBenchmark {

    static final int CALLS = 100;

    /** An executor of the application's own: runs each task on the caller's thread. */
    static final class InlineExecutor implements Executor {
        @Override
        public void execute(Runnable task) {
            task.run();
        }
    }

    private final Executor inline = new InlineExecutor();
    private long ran;
    private final Runnable task = () -> ran++;

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long parkNoRequest() {
        return parks(this);
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long parkInRequest() {
        return parksInRequest(this);
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long executeNoRequest() {
        return executes(this);
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long executeInRequest() {
        return executesInRequest(this);
    }

    /** The request boundary of the park case: {@value #CALLS} parks, none woken by another thread. */
    public static long parksInRequest(ParkExecuteBenchmark state) {
        return parks(state);
    }

    /** The request boundary of the execute case: {@value #CALLS} tasks run inline. */
    public static long executesInRequest(ParkExecuteBenchmark state) {
        return executes(state);
    }

    /** The park case outside a request (HookCpuCost's way in). */
    static long parksOutside(ParkExecuteBenchmark state) {
        return parks(state);
    }

    /** The execute case outside a request. */
    static long executesOutside(ParkExecuteBenchmark state) {
        return executes(state);
    }

    private static long parks(ParkExecuteBenchmark state) {
        Thread self = Thread.currentThread();
        for (int i = 0; i < CALLS; i++) {
            LockSupport.unpark(self);
            LockSupport.park(state);
        }
        return state.ran;
    }

    private static long executes(ParkExecuteBenchmark state) {
        for (int i = 0; i < CALLS; i++) {
            state.inline.execute(state.task);
        }
        return state.ran;
    }
}
