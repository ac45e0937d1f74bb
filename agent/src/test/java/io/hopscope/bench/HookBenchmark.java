package io.hopscope.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the agent's hooks cost on the thread of a request, without a thread crossing: one request
 * boundary, and a chain of {@value #STAGES} nested pipeline stages (each a policy span) inside a
 * request, outside one, and, for comparison, the same chain through a class the agent does not
 * instrument. Run it with the agent off and on (agent/bench/hooks.sh does all three settings); with
 * the agent, {@link #inRequest} and {@link #inBareRequest} are request boundaries and {@link Stage}
 * is a policy interface:
 * {@code requests=io.hopscope.bench.HookBenchmark#inRequest;io.hopscope.bench.HookBenchmark#inBareRequest,
 * policies=io.hopscope.bench.HookBenchmark$Stage}.
 *
 * <p>Reading the figures: {@code bareRequest} is one boundary (request and segment, both events
 * written under the default recording); {@code requestWithSpans - bareRequest} over {@value #STAGES}
 * is one span that is opened and closed but, under the default 1 ms span threshold, not written;
 * {@code spansNoRequest} is what the hooks cost where no request is current.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HookBenchmark {

    static final int STAGES = 8;

    /** A pipeline stage: with the agent, every implementation's apply is a policy span. */
    public interface Stage {
        long apply(long value);
    }

    /** The same shape through an interface the agent is not told about. */
    public interface PlainStage {
        long apply(long value);
    }

    static final class Link implements Stage {
        private final Stage next;

        Link(Stage next) {
            this.next = next;
        }

        @Override
        public long apply(long value) {
            return next == null ? value + 1 : next.apply(value + 1);
        }
    }

    static final class PlainLink implements PlainStage {
        private final PlainStage next;

        PlainLink(PlainStage next) {
            this.next = next;
        }

        @Override
        public long apply(long value) {
            return next == null ? value + 1 : next.apply(value + 1);
        }
    }

    private final Stage chain = newChain();
    private final PlainStage plainChain = newPlainChain();
    private long value;

    private static Stage newChain() {
        Stage s = null;
        for (int i = 0; i < STAGES; i++) {
            s = new Link(s);
        }
        return s;
    }

    private static PlainStage newPlainChain() {
        PlainStage s = null;
        for (int i = 0; i < STAGES; i++) {
            s = new PlainLink(s);
        }
        return s;
    }

    /** One request whose work is the chain of spans. */
    @Benchmark
    public long requestWithSpans() {
        return inRequest(this);
    }

    /** One request whose work is the uninstrumented chain: the boundary alone. */
    @Benchmark
    public long bareRequest() {
        return inBareRequest(this);
    }

    /** The instrumented chain with no current request: each span hook finds none and returns. */
    @Benchmark
    public long spansNoRequest() {
        return chain.apply(value++);
    }

    /** The uninstrumented chain alone: the floor of the cases above. */
    @Benchmark
    public long plainStages() {
        return plainChain.apply(value++);
    }

    /** A request boundary (with the agent) around the instrumented chain. */
    public static long inRequest(HookBenchmark state) {
        return state.chain.apply(state.value++);
    }

    /** A request boundary (with the agent) around the uninstrumented chain. */
    public static long inBareRequest(HookBenchmark state) {
        return state.plainChain.apply(state.value++);
    }
}
